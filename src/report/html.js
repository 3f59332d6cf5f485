// arbiter report: steps each game's board through its plies. The drawings come from the
// page (frames in <template>, pieces and marks in one <defs>, drawn by arbiter's SVG code);
// this script only places them on the points the frame lists and writes every text with
// textContent, never as markup. A game is set up when it first comes into view.
(function () {
  'use strict';
  var SVG = 'http://www.w3.org/2000/svg';
  var EVERY = 32; // a position is kept every EVERY plies, for jumps
  var games = [];
  var active = null;

  function node(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function use(id, x, y) {
    var u = document.createElementNS(SVG, 'use');
    u.setAttribute('href', '#' + id);
    u.setAttribute('transform', 'translate(' + x + ' ' + y + ')');
    return u;
  }

  // Positions every EVERY plies of one view, so that any ply is at most EVERY steps away.
  function checkpoints(v) {
    var pos = v.start.slice();
    var kept = [pos.slice()];
    for (var i = 0; i < v.changes.length; i++) {
      var c = v.changes[i];
      for (var k = 0; k < c.length; k += 2) pos[c[k]] = c[k + 1];
      if ((i + 1) % EVERY === 0) kept.push(pos.slice());
    }
    return kept;
  }

  function position(st, ply) {
    var v = st.d.views[st.view];
    if (!v.kept) v.kept = checkpoints(v);
    var base = Math.floor(ply / EVERY);
    var pos = v.kept[base].slice();
    for (var i = base * EVERY; i < ply; i++) {
      var c = v.changes[i];
      for (var k = 0; k < c.length; k += 2) pos[c[k]] = c[k + 1];
    }
    return pos;
  }

  function coords(st, i) {
    var d = st.d;
    return st.names[d.from[i]] + (d.cap[i] ? 'x' : '-') + st.names[d.to[i]];
  }

  function headline(st, ply) {
    var d = st.d;
    var s = d.game + ' · ';
    s += ply === 0 ? 'start position'
      : 'after ply ' + ply + ' (' + d.sides[d.mover[ply - 1]] + ' ' + coords(st, ply - 1) + ')';
    if (d.end && d.end[0] === ply) {
      return s + ' · game over: ' + d.end[3] + ' (' + d.end[1] + ', ' + d.end[2] + ')';
    }
    s += ' · ' + d.sides[d.next[ply]] + ' to move';
    if (d.notes[ply]) s += ' (' + d.notes[ply] + ')';
    return s;
  }

  function lostLines(v, ply) {
    var lines = [];
    for (var i = 0; i < v.lost.length && v.lost[i][0] <= ply; i++) lines = v.lost[i][1];
    return lines;
  }

  function mark(st, box, id, sq) {
    var u = use(id, st.centres[sq][0], st.centres[sq][1]);
    u.setAttribute('data-square', st.names[sq]);
    box.appendChild(u);
  }

  function drawMarks(st, ply) {
    var d = st.d;
    var marks = st.svg.querySelector('.marks');
    marks.textContent = '';
    var arrow = st.svg.querySelector('.arrow');
    arrow.setAttribute('visibility', 'hidden');
    if (ply > 0) {
      var f = st.centres[d.from[ply - 1]], t = st.centres[d.to[ply - 1]];
      mark(st, marks, 'm-last', d.from[ply - 1]);
      mark(st, marks, 'm-last', d.to[ply - 1]);
      var len = Math.max(1, Math.hypot(t[0] - f[0], t[1] - f[1]));
      arrow.setAttribute('x1', f[0]);
      arrow.setAttribute('y1', f[1]);
      arrow.setAttribute('x2', (t[0] - (t[0] - f[0]) * st.back / len).toFixed(1));
      arrow.setAttribute('y2', (t[1] - (t[1] - f[1]) * st.back / len).toFixed(1));
      arrow.setAttribute('visibility', 'visible');
    }
    if (st.hl && st.hl.at === ply) {
      st.hl.ev.forEach(function (sq) { mark(st, marks, 'm-evidence', sq); });
      st.hl.own.forEach(function (sq) { mark(st, marks, 'm-finding', sq); });
    }
  }

  function render(st) {
    var ply = st.ply, v = st.d.views[st.view];
    var pieces = st.svg.querySelector('.pieces');
    pieces.textContent = '';
    position(st, ply).forEach(function (p, sq) {
      if (p >= 0) {
        var u = use('p' + p, st.centres[sq][0], st.centres[sq][1]);
        u.setAttribute('data-square', st.names[sq]);
        u.setAttribute('data-piece', p);
        pieces.appendChild(u);
      }
    });
    drawMarks(st, ply);
    st.el.headline.textContent = headline(st, ply);
    st.el.viewline.textContent = v.label;
    st.el.lost.textContent = '';
    lostLines(v, ply).forEach(function (l) { st.el.lost.appendChild(node('div', '', l)); });
    st.el.slider.value = ply;
    st.el.plyno.textContent = ply;
    if (st.current) {
      st.current.classList.remove('current');
      st.current.removeAttribute('aria-current');
    }
    st.current = ply > 0 ? st.items[ply - 1] : null;
    if (st.current) {
      st.current.classList.add('current');
      st.current.setAttribute('aria-current', 'step');
      var list = st.el.moves;
      var top = st.current.offsetTop; // the list is the item's offset parent
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 24) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    }
    st.section.setAttribute('data-ply', ply);
    st.section.setAttribute('data-view', v.name);
  }

  function go(st, ply, keep) {
    var n = st.d.moves.length;
    st.ply = Math.max(0, Math.min(n, ply));
    if (!keep) {
      st.hl = null;
      var sel = st.section.querySelector('.finding.selected');
      if (sel) sel.classList.remove('selected');
    }
    active = st;
    render(st);
  }

  function moveList(st) {
    var d = st.d, ol = st.el.moves;
    var notes = {};
    d.comments.forEach(function (c) { (notes[c[0]] = notes[c[0]] || []).push(c[1]); });
    // The comments that stand together are shown as one block.
    if (notes[0]) ol.parentNode.insertBefore(node('p', 'comment', notes[0].join('\n')), ol);
    st.items = d.moves.map(function (m, i) {
      var li = node('li', 'ply');
      var b = node('button', 'mv', d.sides[d.mover[i]] + ' ' + m);
      b.type = 'button';
      b.setAttribute('data-ply', i + 1);
      li.appendChild(b);
      if (notes[i + 1]) li.appendChild(node('div', 'comment', notes[i + 1].join('\n')));
      ol.appendChild(li);
      return li;
    });
    if (d.unplayed > 0) {
      ol.appendChild(node('li', 'unplayed', d.unplayed + (d.unplayed === 1 ? ' more ply' : ' more plies') +
        ' in the record, not played (see the findings)'));
    }
    ol.addEventListener('click', function (e) {
      var b = e.target.closest('button.mv');
      if (b) go(st, +b.getAttribute('data-ply'));
    });
  }

  function viewButtons(st) {
    var box = st.section.querySelector('.views');
    if (!box) return;
    st.d.views.forEach(function (v, i) {
      var b = node('button', 'view', v.name === 'arbiter' ? 'arbiter' : v.name);
      b.type = 'button';
      b.setAttribute('data-view', v.name);
      b.setAttribute('aria-pressed', i === st.view ? 'true' : 'false');
      b.addEventListener('click', function () {
        st.view = i;
        box.querySelectorAll('button').forEach(function (o, j) {
          o.setAttribute('aria-pressed', j === i ? 'true' : 'false');
        });
        active = st;
        render(st);
      });
      box.appendChild(b);
    });
  }

  function findings(st) {
    st.section.querySelectorAll('.finding').forEach(function (li) {
      li.addEventListener('click', function () {
        var list = function (a) {
          var s = li.getAttribute(a);
          return s ? s.split(',').map(Number) : [];
        };
        var sel = st.section.querySelector('.finding.selected');
        if (sel) sel.classList.remove('selected');
        li.classList.add('selected');
        st.hl = { at: +li.getAttribute('data-at'), own: list('data-own'), ev: list('data-ev') };
        go(st, st.hl.at, true);
        st.el.board.scrollIntoView({ block: 'nearest' });
      });
    });
  }

  function setUp(section) {
    if (section.arbiter) return section.arbiter;
    var data = section.querySelector('script.data');
    if (!data) return null;
    var d = JSON.parse(data.textContent);
    d.views.forEach(function (v) {
      if (v.same !== undefined) {
        var o = d.views[v.same];
        v.start = o.start; v.changes = o.changes; v.lost = o.lost;
      }
    });
    var tpl = document.getElementById('frame' + d.frame);
    var board = section.querySelector('.board');
    board.appendChild(tpl.content.cloneNode(true));
    var q = function (s) { return section.querySelector(s); };
    var st = {
      d: d, section: section, svg: board.querySelector('svg'), view: 0, hl: null,
      ply: d.moves.length, current: null,
      centres: tpl.getAttribute('data-centres').split(' ').map(function (p) { return p.split(',').map(Number); }),
      names: tpl.getAttribute('data-names').split(' '),
      back: +tpl.getAttribute('data-back'),
      el: {
        board: board, headline: q('.headline'), viewline: q('.viewline'), lost: q('.lost'),
        slider: q('.slider'), plyno: q('.plyno'), moves: q('.moves')
      }
    };
    section.arbiter = st;
    games.push(st);
    moveList(st);
    viewButtons(st);
    findings(st);
    section.querySelectorAll('.controls button').forEach(function (b) {
      b.addEventListener('click', function () {
        var to = { first: 0, prev: st.ply - 1, next: st.ply + 1, last: d.moves.length };
        go(st, to[b.getAttribute('data-step')]);
      });
    });
    st.el.slider.addEventListener('input', function () { go(st, +st.el.slider.value); });
    section.querySelector('.viewer').addEventListener('focusin', function () { active = st; });
    render(st);
    section.setAttribute('data-ready', 'true');
    return st;
  }

  document.addEventListener('keydown', function (e) {
    if (e.target && e.target.classList && e.target.classList.contains('slider')) return;
    var st = active || games[0];
    if (!st || e.altKey || e.ctrlKey || e.metaKey) return;
    var to = { ArrowLeft: st.ply - 1, ArrowRight: st.ply + 1, Home: 0, End: st.d.moves.length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(st, to);
  });

  var sections = document.querySelectorAll('section.game');
  var byHash = function () {
    var s = location.hash && document.getElementById(location.hash.slice(1));
    if (s && s.classList.contains('game')) active = setUp(s) || active;
  };
  window.addEventListener('hashchange', byHash);
  if ('IntersectionObserver' in window) {
    var seen = new IntersectionObserver(function (entries) {
      entries.forEach(function (en) {
        if (en.isIntersecting) { setUp(en.target); seen.unobserve(en.target); }
      });
    }, { rootMargin: '400px' });
    sections.forEach(function (s) { seen.observe(s); });
  } else {
    sections.forEach(setUp);
  }
  if (sections.length) active = setUp(sections[0]);
  byHash();
  window.arbiterReport = { setUp: setUp, go: function (section, ply) { go(setUp(section), ply); } };
})();
