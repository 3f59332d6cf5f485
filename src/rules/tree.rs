//! Replaying a record's whole tree of play: the main line and every variation
//! ([`GameRecord::variations`]), each ply once.
//!
//! The tree is walked depth first with an explicit stack (a variation nested 100,000 deep
//! costs no call stack). A variation is played from its parent line's position before the
//! move it replaces, so the plies it shares with its ancestors are played, and judged, once:
//! a finding on them belongs to the line that holds them. Where the engine can take plies
//! back ([`Rules::can_undo`]: Xiangqi and Jieqi, the formats with large trees), one state
//! walks the whole tree and every variation ply is undone once: time and memory are linear in
//! the plies of the tree (plus any repetition window judged). Other engines copy the state
//! where a variation branches off.
//!
//! A variation that branches off after a ply its parent line could not play (a refused move,
//! or a move after the game ended on the board) has no position to start from: it is not
//! replayed ([`LineReplay::reached`] false), and the finding on that ply says how many
//! variations it leaves unchecked.

use super::{moves_after_end, note_unchecked, Outcome, Parameters, Replay, Rules};
use crate::finding::Finding;
use crate::record::{GameRecord, MoveRecord};

/// What the replay of one variation showed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineReplay {
    /// Plies of the variation's own that were applied (the plies it shares with its parent
    /// line are the parent's).
    pub plies: usize,
    /// How the line ended on the board, if it did (`ply` counted from the game's start).
    pub outcome: Option<Outcome>,
    /// True when a refused ply stopped the line.
    pub stopped: bool,
    /// False when the line was not replayed: it branches off after a ply an ancestor line
    /// could not play.
    pub reached: bool,
}

/// The replay of a record's tree.
#[derive(Debug, Clone, Default)]
pub struct TreeReplay {
    /// The main line, exactly as [`super::replay`] gives it.
    pub main: Replay,
    /// Variation `n` (line `n`) at index `n - 1`.
    pub lines: Vec<LineReplay>,
    /// The findings on the variations' own plies, each carrying its line
    /// ([`Finding::line`]), line by line in the order the walk finishes them.
    pub findings: Vec<Finding>,
}

/// One line being walked.
struct Frame<'r> {
    line: usize,
    moves: &'r [MoveRecord],
    /// Plies before the line's first move.
    base: u32,
    /// The next own move to play.
    i: usize,
    /// The next child in [`Children::kids`], and the end of this line's children there.
    kid: usize,
    kids_end: usize,
    outcome: Option<Outcome>,
    /// Own plies applied (undone when the line is left, where the engine undoes).
    played: usize,
    /// The line cannot go on (a refused ply, or moves after its end).
    done: bool,
    stopped: bool,
}

/// Every line's children, grouped by parent and ordered by the move they replace.
struct Children {
    /// (parent, index of the parent's own move replaced, child line).
    kids: Vec<(usize, usize, usize)>,
    /// `first[l]`: where line `l`'s children start in `kids` (`first[l + 1]` where they end).
    first: Vec<usize>,
    /// Lines in each line's subtree, itself included.
    subtree: Vec<usize>,
}

impl Children {
    /// The children of every line of `record`. A variation whose parent is not listed before
    /// it, or whose branch point lies outside its parent's moves, is left out (never reached).
    fn of(record: &GameRecord) -> Children {
        let n = record.variations.len() + 1;
        let kids = record.branches();
        let mut subtree = vec![1usize; n];
        for line in (1..n).rev() {
            let p = record.variations[line - 1].parent;
            if p < line {
                subtree[p] += subtree[line];
            }
        }
        let mut first = vec![0usize; n + 1];
        for &(p, _, _) in &kids {
            first[p + 1] += 1;
        }
        for l in 0..n {
            first[l + 1] += first[l];
        }
        Children {
            kids,
            first,
            subtree,
        }
    }

    /// Lines in the subtrees of line `l`'s children from `kid` on (not replayed when the line
    /// stops before them).
    fn left_out(&self, kid: usize, end: usize) -> usize {
        self.kids[kid..end]
            .iter()
            .map(|&(_, _, c)| self.subtree[c])
            .sum()
    }
}

/// Replays the main line and every variation of `record` with `rules` (see the module doc).
pub fn replay_tree<R: Rules>(rules: &R, record: &GameRecord, params: &Parameters) -> TreeReplay {
    let mut out = TreeReplay {
        main: Replay {
            parameters: params.clone(),
            ..Replay::default()
        },
        lines: vec![LineReplay::default(); record.variations.len()],
        findings: Vec::new(),
    };
    // A log taken up after ply `start` (`FromPly`) numbers its plies from `start + 1` on
    // every line, as the main line's replay does.
    let started = super::start_ply(record)
        .map_err(|f| vec![f])
        .and_then(|start| {
            out.main.start_ply = start;
            rules.start(record, params, &mut out.main.findings)
        });
    let state = match started {
        Ok(s) => s,
        Err(errors) => {
            out.main.findings.extend(errors);
            out.main.stopped = true;
            return out;
        }
    };
    let start = out.main.start_ply;
    out.main.start_key = rules.key(&state);
    out.main.outcome = rules.outcome(&state, start);
    let children = Children::of(record);
    Walk {
        rules,
        record,
        children: &children,
        undo: rules.can_undo(),
        states: vec![state],
        stack: Vec::new(),
        start,
        path: Replay {
            start_ply: start,
            ..Replay::default()
        },
        out: &mut out,
    }
    .run();
    out
}

/// The depth-first walk of [`replay_tree`].
struct Walk<'a, 'r, R: Rules> {
    rules: &'a R,
    record: &'r GameRecord,
    children: &'a Children,
    /// One state taken back ply by ply, or (engines that cannot undo) a copy per open line.
    undo: bool,
    states: Vec<R::State>,
    stack: Vec<Frame<'r>>,
    /// The ply after which the start position stands (`FromPly`): a line's ply `i` (from 0)
    /// is ply `start + base + i + 1` of the game.
    start: u32,
    /// The plies of the path from the start to the current position: the line being walked,
    /// as [`Rules::after_replay`] reads a line (its other fields unused).
    path: Replay,
    out: &'a mut TreeReplay,
}

impl<'r, R: Rules> Walk<'_, 'r, R> {
    fn frame(&self, line: usize, outcome: Option<Outcome>) -> Frame<'r> {
        let (base, moves) = match line {
            0 => (0, self.record.moves.as_slice()),
            l => {
                let v = &self.record.variations[l - 1];
                (v.start, v.moves.as_slice())
            }
        };
        Frame {
            line,
            moves,
            base,
            i: 0,
            kid: self.children.first[line],
            kids_end: self.children.first[line + 1],
            outcome,
            played: 0,
            done: false,
            stopped: false,
        }
    }

    fn run(&mut self) {
        let main = self.frame(0, self.out.main.outcome.clone());
        self.stack.push(main);
        while let Some(top) = self.stack.last_mut() {
            let kids = &self.children.kids;
            if top.kid < top.kids_end && kids[top.kid].1 == top.i {
                // A variation in place of the move about to be played: walk it first.
                let child = kids[top.kid].2;
                top.kid += 1;
                let outcome = top.outcome.clone();
                if !self.undo {
                    let copy = self.states.last().expect("a state per open line").clone();
                    self.states.push(copy);
                }
                let f = self.frame(child, outcome);
                self.stack.push(f);
            } else if top.done || top.i == top.moves.len() {
                self.leave();
            } else {
                self.step();
            }
        }
    }

    /// Plays the next move of the line on top of the stack.
    fn step(&mut self) {
        let (rules, start) = (self.rules, self.start);
        let state = self.states.last_mut().expect("a state per open line");
        let top = self.stack.last_mut().expect("an open line");
        let (line, moves, i) = (top.line, top.moves, top.i);
        let number = start + top.base + i as u32 + 1;
        let ended = match &top.outcome {
            Some(end) => Err(moves_after_end(&moves[i..], number, end)),
            None if self.undo && line > 0 => rules.play_undoable(state, &moves[i], number),
            None => rules.play(state, &moves[i], number),
        };
        let mut f = match ended {
            Ok(applied) => {
                top.i += 1;
                top.played += 1;
                top.outcome = rules.settled_outcome(state, number);
                self.path.plies.push(applied.info.clone());
                if line == 0 {
                    self.out.main.findings.extend(applied.findings);
                    self.out.main.plies.push(applied.info);
                } else {
                    let found = applied.findings.into_iter().map(|f| f.on_line(line));
                    self.out.findings.extend(found);
                }
                return;
            }
            // A position without a legal move ended the line before this ply.
            Err(f) if top.outcome.is_none() => match rules.outcome(state, number - 1) {
                Some(end) => {
                    let f = moves_after_end(&moves[i..], number, &end);
                    top.outcome = Some(end);
                    f
                }
                None => f,
            },
            Err(f) => f,
        };
        // The line cannot go on. Its children at this move were walked already; the later
        // ones have no position to start from.
        let left = self.children.left_out(top.kid, top.kids_end);
        top.done = true;
        let what = if line == 0 { "game" } else { "line" };
        if top.outcome.is_some() {
            note_unchecked(&mut f, 0, what, left);
        } else {
            top.stopped = true;
            note_unchecked(&mut f, moves.len() - i - 1, what, left);
        }
        if line == 0 {
            self.out.main.findings.push(f);
        } else {
            self.out.findings.push(f.on_line(line));
        }
    }

    /// Closes the top line: its figures, its state taken back to its branch point.
    fn leave(&mut self) {
        let mut top = self.stack.pop().expect("an open line");
        if top.outcome.is_none() && !top.done {
            // The line's last position: only now is its search for a legal move needed.
            let state = self.states.last().expect("the walk's state");
            top.outcome = self
                .rules
                .outcome(state, self.start + top.base + top.i as u32);
        }
        if top.line == 0 {
            self.out.main.outcome = top.outcome;
            self.out.main.stopped = top.stopped;
            return;
        }
        // Findings only the whole line shows (Veldslag's no-capture counts), on its own plies.
        let branch = self.start + top.base;
        let own = |f: &Finding| f.ply.is_some_and(|p| p > branch);
        let after = self.rules.after_replay(&self.path);
        let found = after.into_iter().filter(own).map(|f| f.on_line(top.line));
        self.out.findings.extend(found);
        self.path.plies.truncate(top.base as usize);
        self.out.lines[top.line - 1] = LineReplay {
            plies: top.played,
            outcome: top.outcome,
            stopped: top.stopped,
            reached: true,
        };
        if self.undo {
            let state = self.states.last_mut().expect("the walk's state");
            for _ in 0..top.played {
                self.rules.undo(state);
            }
        } else {
            self.states.pop();
        }
    }
}
