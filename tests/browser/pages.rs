//! The scenarios: one page per fixture, stepped and looked at in chromium.

use crate::{bin, browser, scratch};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::Path;

/// The pieces of `arbiter show FILE --ply N [--as SIDE]`'s terminal board as `square=xY`
/// (owner's initial and letter or `?`), sorted; and its caption's first line.
fn show(file: &str, index: usize, ply: u32, side: Option<&str>) -> (Vec<String>, String) {
    let (ply_s, index_s) = (ply.to_string(), index.to_string());
    let mut args = vec![
        "show",
        file,
        "--ply",
        &ply_s,
        "--game-index",
        &index_s,
        "--color",
        "never",
    ];
    if let Some(s) = side {
        args.extend(["--as", s]);
    }
    let (code, out, err) = bin::run(&args).parts();
    assert_eq!(code, 0, "show {args:?}: {err}");
    let lines: Vec<&str> = out.lines().collect();
    let files = lines[2];
    let first = files.find('a').expect("files line") - 2;
    let mut pieces = Vec::new();
    for line in lines[3..].iter().take_while(|l| **l != files) {
        let chars: Vec<char> = line.chars().collect();
        let Some(label) = line
            .split_whitespace()
            .next()
            .filter(|l| l.parse::<u32>().is_ok())
        else {
            continue; // the river
        };
        for (f, cell) in chars[first..]
            .chunks(4)
            .enumerate()
            .take_while(|(_, c)| c.len() == 4)
        {
            let body: String = cell[1..3].iter().collect();
            if body.starts_with(|c: char| c.is_ascii_lowercase()) {
                pieces.push(format!("{}{label}={body}", (b'a' + f as u8) as char));
            }
        }
    }
    pieces.sort();
    (pieces, lines[0].to_string())
}

/// JS: the page's state in section `sel`: ply, caption, view, the board's pieces as
/// `square=xY`, the marked move's text, the squares marked for a finding and as evidence.
fn state(sel: &str) -> Value {
    let js = format!(
        r##"(() => {{
  const s = document.querySelector('{sel}');
  const token = u => document.getElementById(u.getAttribute('href').slice(1)).getAttribute('data-token').slice(0, 2);
  const squares = id => [...s.querySelectorAll('.marks use[href="#' + id + '"]')].map(u => u.getAttribute('data-square')).sort();
  const cur = s.querySelector('ol.moves li.current');
  return {{
    ply: +s.getAttribute('data-ply'), view: s.getAttribute('data-view'),
    headline: s.querySelector('.headline').textContent,
    viewline: s.querySelector('.viewline').textContent,
    board: [...s.querySelectorAll('.pieces use')].map(u => u.getAttribute('data-square') + '=' + token(u)).sort(),
    current: cur ? cur.textContent : null,
    currentIndex: cur ? [...cur.parentNode.children].indexOf(cur) + 1 : 0,
    last: squares('m-last'), finding: squares('m-finding'), evidence: squares('m-evidence'),
  }};
}})()"##
    );
    json!({ "eval": js })
}

fn click(sel: &str) -> Value {
    json!({ "click": sel })
}

/// Writes the page of `file` (extra arguments `args`) into `dir`.
fn report(dir: &Path, file: &str, args: &[&str]) -> String {
    let out = dir.join(format!(
        "{}.html",
        Path::new(file).file_stem().unwrap().to_string_lossy()
    ));
    let out_s = out.to_string_lossy().into_owned();
    let mut a = vec!["report", file, "-o", &out_s];
    a.extend(args);
    let (code, _, err) = bin::run(&a).parts();
    assert!(code <= 1, "report {a:?}: {err}");
    out_s
}

/// Every page asked for nothing but its own file and logged no error.
fn assert_quiet(page: &Value, file: &str) {
    let requests: Vec<&str> = page["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert_eq!(requests.len(), 1, "{file}: requests {requests:?}");
    assert!(requests[0].starts_with("file://") && requests[0].ends_with(".html"));
    assert_eq!(page["errors"], json!([]), "{file}: errors");
}

/// The page's state against `show` at that ply and view.
fn assert_as_shown(v: &Value, file: &str, index: usize, side: Option<&str>, what: &str) {
    let ply = v["ply"].as_u64().unwrap() as u32;
    let (pieces, headline) = show(file, index, ply, side);
    assert_eq!(
        v["board"],
        json!(pieces),
        "{file} {what}: board after ply {ply}"
    );
    assert_eq!(v["headline"], json!(headline), "{file} {what}: caption");
    if ply > 0 {
        assert_eq!(v["currentIndex"], json!(ply), "{file} {what}: marked move");
        assert_eq!(
            v["last"].as_array().unwrap().len(),
            2,
            "{file} {what}: last move framed"
        );
    } else {
        assert_eq!(v["current"], Value::Null);
    }
}

/// (fixture, game index in its file, ruleset, the second player's `--as` name).
const GAMES: &[(&str, usize, &str, &str)] = &[
    ("fixtures/show/stratego.arb", 0, "stratego", "blue"),
    ("fixtures/show/barrage.arb", 0, "barrage", "blue"),
    ("fixtures/show/duel.arb", 0, "duel", "blue"),
    ("fixtures/show/veldslag.arb", 0, "veldslag", "blue"),
    ("fixtures/show/spionage.arb", 0, "spionage", "black"),
    (
        "fixtures/spionage/no-return.arb",
        6,
        "spionage-snel",
        "black",
    ),
    ("fixtures/show/jungle.arb", 0, "jungle", "blue"),
    ("fixtures/show/xiangqi.arb", 0, "xiangqi", "black"),
    ("fixtures/show/jieqi.arb", 0, "jieqi", "black"),
];

/// A game of every ruleset: loaded at its last ply; first; two clicks on next and a right
/// arrow; the slider; the second player's view; each state equal to `arbiter show`'s.
#[test]
fn every_ruleset_steps_like_show() {
    let Some(b) = browser("every_ruleset_steps_like_show") else {
        return;
    };
    let dir = scratch("rulesets");
    let mut pages = Vec::new();
    for &(file, index, game, second) in GAMES {
        let sel = format!("section[data-ruleset=\"{game}\"][data-index=\"{index}\"]");
        let slider = format!(
            "(() => {{ const r = document.querySelector('{sel} .slider'); r.value = 2; r.dispatchEvent(new Event('input')); }})()"
        );
        let second_view = format!("{sel} .views button[data-view=\"{}\"]", capital(second));
        pages.push(json!({"file": report(&dir, file, &[]), "steps": [
            {"eval": format!("new Promise(done => {{ location.hash = '#' + document.querySelector('{sel}').id; setTimeout(done, 100); }})")},
            state(&sel),
            click(&format!("{sel} button[data-step=\"first\"]")), state(&sel),
            click(&format!("{sel} button[data-step=\"next\"]")),
            click(&format!("{sel} button[data-step=\"next\"]")),
            {"key": "ArrowRight"}, state(&sel),
            {"eval": slider}, state(&sel),
            click(&second_view), state(&sel),
        ]}));
    }
    let seen = b.run(pages);
    for (&(file, index, _, second), page) in GAMES.iter().zip(&seen) {
        assert_quiet(page, file);
        // v[0]: the link followed (no value).
        let v = page["values"].as_array().unwrap();
        let (_, last) = show_last(file, index);
        assert_eq!(v[1]["ply"], json!(last), "{file}: opens at the last ply");
        assert_as_shown(&v[1], file, index, None, "loaded");
        assert_eq!(v[2]["ply"], json!(0), "{file}: first");
        assert_as_shown(&v[2], file, index, None, "first");
        assert_eq!(
            v[3]["ply"],
            json!(3.min(last)),
            "{file}: next, next, right arrow"
        );
        assert_as_shown(&v[3], file, index, None, "stepped");
        // v[4]: the slider moved (no value).
        assert_eq!(v[5]["ply"], json!(2), "{file}: slider");
        assert_as_shown(&v[5], file, index, None, "slider");
        assert_eq!(
            v[6]["view"],
            json!(capital(second)),
            "{file}: view switched"
        );
        assert_as_shown(&v[6], file, index, Some(second), "second player's view");
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// The number of plies `check` replays in game `index` of `file`.
fn show_last(file: &str, index: usize) -> ((), u64) {
    let (_, out, _) = bin::run(&["check", "--format", "json", file]).parts();
    let v: Value = serde_json::from_str(&out).unwrap();
    let g = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["index"] == json!(index))
        .unwrap();
    ((), g["plies"].as_u64().unwrap())
}

/// Choosing a finding jumps to its ply and highlights its squares, worked out by hand:
/// Barrage two-squares (fixture header: ply 7 h1-h2 is the 4th move of the run h1-h2-h1;
/// the run's earlier plies 1, 3, 5 use the same two squares) and a Xiangqi perpetual chase
/// (ply 8 c6d6 is the third occurrence; the chase's moves are Red's a5b7 and b7a5, plies
/// 1, 3, 5, 7, evidence on a5 and b7; the chased Chariot moved c6-d6). Printed, the page
/// shows the board at the finding's ply instead of the stepping board.
#[test]
fn a_finding_jumps_to_its_ply_and_marks_its_squares() {
    let Some(b) = browser("a_finding_jumps_to_its_ply_and_marks_its_squares") else {
        return;
    };
    let dir = scratch("findings");
    let cases = [
        (
            "fixtures/history/two-squares-fourth-move.arb",
            7,
            vec!["h1", "h2"],
            vec![],
        ),
        (
            "fixtures/xiangqi/repetition-horse-chases-protected-chariot.arb",
            8,
            vec!["c6", "d6"],
            vec!["a5", "b7"],
        ),
    ];
    let pages = cases
        .iter()
        .map(|(file, ..)| {
            json!({"file": report(&dir, file, &[]), "steps": [
                click("#g0 button[data-step=\"first\"]"), state("#g0"),
                click("#g0 .finding .goto"), state("#g0"),
                {"eval": "document.querySelector('#g0 .finding').classList.contains('selected')"},
                {"key": "ArrowLeft"}, state("#g0"),
                {"media": "print"},
                {"eval": "[getComputedStyle(document.querySelector('#g0 .viewer')).display, [...document.querySelectorAll('#g0 figure.print-board')].filter(f => f.getBoundingClientRect().height > 300).map(f => f.getAttribute('data-ply'))]"},
            ]})
        })
        .collect();
    let seen = b.run(pages);
    for ((file, ply, own, ev), page) in cases.iter().zip(&seen) {
        assert_quiet(page, file);
        let v = page["values"].as_array().unwrap();
        assert_eq!(v[0]["ply"], json!(0));
        assert_eq!(v[1]["ply"], json!(ply), "{file}: jumped to the finding");
        assert_as_shown(&v[1], file, 0, None, "finding");
        assert_eq!(v[1]["finding"], json!(own), "{file}: the finding's squares");
        assert_eq!(
            v[1]["evidence"],
            json!(ev),
            "{file}: the squares of its plies"
        );
        assert_eq!(v[2], json!(true), "{file}: the finding is marked chosen");
        assert_eq!(v[3]["ply"], json!(ply - 1), "{file}: left arrow");
        assert_eq!(
            v[3]["finding"],
            json!([]),
            "{file}: highlight gone after a step"
        );
        // Printed: no controls, the board at the finding's ply.
        assert_eq!(v[4], json!(["none", [ply.to_string()]]), "{file}: print");
    }
}

/// A page for Black (`--as black`) of a Jieqi game: one view, Black's, equal to `show --as
/// black` at every ply; no drawing of a piece Black never saw is in the page.
#[test]
fn a_players_page_shows_that_player_only() {
    let Some(b) = browser("a_players_page_shows_that_player_only") else {
        return;
    };
    let dir = scratch("player");
    let file = "fixtures/show/jieqi.arb";
    let page = report(&dir, file, &["--as", "black"]);
    let mut steps = vec![click("#g0 button[data-step=\"first\"]"), state("#g0")];
    for _ in 0..4 {
        steps.push(click("#g0 button[data-step=\"next\"]"));
        steps.push(state("#g0"));
    }
    steps.push(json!({"eval": "[...document.querySelectorAll('svg.kit g[data-token]')].map(g => g.getAttribute('data-token')).sort()"}));
    steps.push(json!({"eval": "document.querySelectorAll('#g0 .views button').length"}));
    let seen = b.run(vec![json!({"file": page, "steps": steps})]);
    assert_quiet(&seen[0], file);
    let v = seen[0]["values"].as_array().unwrap();
    for (i, s) in v[..5].iter().enumerate() {
        assert_eq!(s["ply"], json!(i));
        assert_eq!(s["view"], json!("Black"));
        assert_as_shown(s, file, 0, Some("black"), "Black's page");
    }
    // Red's captured covered Chariot was never seen by Red, but Black captured it; Black's
    // own covered pieces are `b?`: Black's page draws only what Black saw.
    let tokens: BTreeSet<&str> = v[5]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    let want: BTreeSet<&str> = ["bK*", "bN*", "bR*", "b?", "rC*", "rK*", "rP*", "r?"].into();
    assert_eq!(tokens, want);
    assert_eq!(v[6], json!(0), "no view switch on a player's page");
}

/// Tags, comments and a player's name that look like markup stay text: nothing runs, no
/// element is made of them, nothing is fetched.
#[test]
fn markup_in_a_log_stays_text() {
    let Some(b) = browser("markup_in_a_log_stays_text") else {
        return;
    };
    let dir = scratch("inject");
    let hostile = [
        "<script>window.pwned=1</script>",
        "</script><script>window.pwned=2</script>",
        "\"><img src=x onerror=window.pwned=3>",
        "<img src=\"https://example.invalid/x.png\">",
    ];
    let log = format!(
        "[Game \"xiangqi\"]\n[Event \"{}\"]\n[Site \"{}\"]\n[Red \"{}\"]\n[Black \"{}\"]\n[Result \"*\"]\n\n{{{}}} 1. h2e2 {{{}}} h9g7 *\n",
        hostile[0],
        hostile[1],
        hostile[2].replace('"', "\\\""),
        hostile[3].replace('"', "\\\""),
        hostile[0],
        hostile[2]
    );
    let file = dir.join("hostile.pgn");
    std::fs::write(&file, log).unwrap();
    let page = report(&dir, &file.to_string_lossy(), &[]);
    let steps = vec![
        json!({"eval": "[window.pwned === undefined, document.images.length, document.scripts.length, document.querySelectorAll('iframe, object, embed, link, style').length]"}),
        json!({"eval": "[...document.querySelectorAll('#g0 table.tags td')].map(td => td.textContent)"}),
        json!({"eval": "[...document.querySelectorAll('#g0 .comment')].map(c => c.textContent)"}),
    ];
    let seen = b.run(vec![json!({"file": page, "steps": steps})]);
    assert_quiet(&seen[0], "hostile.pgn");
    let v = seen[0]["values"].as_array().unwrap();
    // One script of the page, one data block; one style element, none from the log.
    assert_eq!(v[0], json!([true, 0, 2, 1]));
    assert_eq!(
        v[1],
        json!(["xiangqi", hostile[0], hostile[1], hostile[2], hostile[3], "*"])
    );
    assert_eq!(v[2], json!([hostile[0], hostile[2]]));
}
