//! The verdict of one game, in the words every output shares: the human report's block
//! before the findings, `show`'s caption, `claim` answers that name an ending, the HTML
//! report. [`GameVerdict::of`] is a pure function of a judged [`GameReport`];
//! [`GameVerdict::render`] is its text for people, [`ending_words`] the words for an ending.

use super::escape;
use crate::finding::{Code, Finding, Rule, Severity};
use crate::pipeline::GameReport;
pub use crate::types::ending_words;
use crate::types::{GameId, MoveRef, RecordedResult, Verdict};

/// How the moves leave the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// The moves end it on the board: the result and why, after ply `ply` (0: the start
    /// position already ends it), played as `by`.
    Ended {
        /// Result and reason.
        verdict: Verdict,
        /// The last ply played.
        ply: u32,
        /// That ply as written (none at the start).
        by: Option<MoveRef>,
    },
    /// The moves do not end it: `plies` plies were played.
    Unfinished {
        /// Plies replayed.
        plies: u32,
    },
    /// The replay stopped after `plies` plies at `at` (none: the game could not start), for
    /// the finding `code` with `message`: the rest is unchecked.
    Stopped {
        /// Plies replayed.
        plies: u32,
        /// The ply that could not be played, as written.
        at: Option<MoveRef>,
        /// The finding that stopped it (`illegal-move`, `parse-error`, `setup-invalid`).
        code: Code,
        /// Its message.
        message: String,
    },
    /// The game was not judged at all (unreadable, no ruleset, an unsupported variant).
    NotJudged {
        /// `parse-error` or `unsupported-game`.
        code: Code,
        /// The finding's message.
        message: String,
    },
}

/// Whether the recorded result and termination agree with the moves (rulings §1.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordCheck {
    /// They agree.
    Agrees,
    /// They do not: the first `result-mismatch` message.
    Disagrees(String),
    /// The record gives no result.
    Missing,
    /// The record gives `*`: nothing to compare.
    Unknown,
    /// Not compared: the replay stopped before the end of the record.
    NotChecked,
    /// Not compared: the record's `Result` or `Termination` cannot be read (the finding's
    /// message).
    Unreadable(String),
}

/// Findings by severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    /// Errors.
    pub errors: usize,
    /// Warnings.
    pub warnings: usize,
    /// Infos.
    pub infos: usize,
}

impl Counts {
    /// The counts of `findings`.
    pub fn of(findings: &[Finding]) -> Counts {
        let mut c = Counts::default();
        for f in findings {
            match f.severity() {
                Severity::Error => c.errors += 1,
                Severity::Warning => c.warnings += 1,
                Severity::Info => c.infos += 1,
            }
        }
        c
    }
}

/// Everything the verdict of one game says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameVerdict {
    /// The source's name.
    pub source: String,
    /// The game's index in its source (from 0).
    pub index: usize,
    /// The ruleset, when known.
    pub game: Option<GameId>,
    /// The players from the tags, first player first.
    pub players: [Option<String>; 2],
    /// How the moves leave the game.
    pub ending: Ending,
    /// The recorded result and termination, as written.
    pub result: Option<RecordedResult>,
    /// The `Termination` tag as written.
    pub termination: Option<String>,
    /// Whether they agree with the moves.
    pub record: RecordCheck,
    /// Findings by severity.
    pub counts: Counts,
}

/// The players' names of `game` (Red/Blue for a game of no known ruleset).
fn sides(game: Option<GameId>) -> [&'static str; 2] {
    game.map_or(["Red", "Blue"], |g| g.side_names())
}

/// `s` with its first letter upper-case.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

impl GameVerdict {
    /// The verdict of the judged game `g` as [`crate::pipeline::check_record`] leaves it (its
    /// replay kept: a report without one is a game that was not judged), its findings counted
    /// as they stand.
    pub fn of(g: &GameReport) -> GameVerdict {
        GameVerdict {
            source: g.source.clone(),
            index: g.index,
            game: g.game,
            players: g.players.clone(),
            ending: ending(g),
            result: g.result,
            termination: g.termination.clone(),
            record: record_check(g),
            counts: Counts::of(&g.findings),
        }
    }

    /// The ending in words, with the ply and the move (`Red wins: Blue's Flag is captured
    /// (flag-captured) on ply 7 (4. b4xb7)`). Text from the log is not escaped.
    pub fn ending_text(&self) -> String {
        let names = sides(self.game);
        match &self.ending {
            Ending::Ended { verdict, ply, by } => {
                let at = match (by, ply) {
                    (Some(m), _) => format!("on {}", m.named(names)),
                    (None, 0) => "at the start".to_string(),
                    (None, p) => format!("on ply {p}"),
                };
                format!(
                    "{} ({}) {at}",
                    capitalised(&ending_words(names, *verdict)),
                    verdict.reason
                )
            }
            Ending::Unfinished { plies } => format!(
                "unfinished: the moves do not end the game ({})",
                super::counted(*plies as usize, "ply", "plies")
            ),
            Ending::Stopped {
                at: Some(m),
                code,
                message,
                ..
            } => format!(
                // The ply before the one that cannot be played: a log taken up later
                // (`FromPly`) has played fewer than that.
                "judged up to ply {} only: {} cannot be played ({code}: {message}); the rest is unchecked",
                m.ply.saturating_sub(1),
                m.named(names)
            ),
            Ending::Stopped {
                at: None,
                code,
                message,
                ..
            } => format!("not judged: the game cannot start ({code}: {message})"),
            Ending::NotJudged { code, message } => {
                format!("not judged ({code}: {message})")
            }
        }
    }

    /// The recorded result and termination and whether they agree with the moves
    /// (`1-0 recorded: agrees with the moves`).
    pub fn record_text(&self) -> String {
        let recorded = match (&self.result, &self.termination) {
            (Some(r), Some(t)) => format!("{} ({t}) recorded", r.as_str()),
            (Some(r), None) => format!("{} recorded", r.as_str()),
            (None, Some(t)) => format!("no result, termination {t} recorded"),
            (None, None) => "no result recorded".to_string(),
        };
        let moves_give = match &self.ending {
            Ending::Ended { verdict, .. } => {
                format!("; the moves give {}", verdict.result.as_str())
            }
            _ => String::new(),
        };
        match &self.record {
            RecordCheck::Agrees => format!("{recorded}: agrees with the moves"),
            RecordCheck::Disagrees(why) => format!("{recorded}: disagrees ({why})"),
            RecordCheck::Missing | RecordCheck::Unknown => format!("{recorded}{moves_give}"),
            RecordCheck::Unreadable(why) => format!("{recorded}: not compared ({why})"),
            RecordCheck::NotChecked => match self.ending {
                Ending::NotJudged { .. } => {
                    format!("{recorded}: not compared (the game was not judged)")
                }
                _ => {
                    format!("{recorded}: not compared (the replay stopped before the record's end)")
                }
            },
        }
    }

    /// `1 error, 0 warnings, 2 infos`, or `none`.
    pub fn counts_text(&self) -> String {
        let c = self.counts;
        if c.errors + c.warnings + c.infos == 0 {
            return "none".into();
        }
        super::by_severity(c.errors, c.warnings, c.infos)
    }

    /// The verdict as a player's page of a game with hidden pieces gives it: each move
    /// without its annotation and each finding's message replaced by its code's description
    /// (both may name a piece that player did not know; docs/report.md).
    pub fn for_player(mut self) -> GameVerdict {
        let bare = |m: &mut MoveRef| {
            if let Some(i) = m.text.find('(') {
                m.text.truncate(i);
            }
        };
        match &mut self.ending {
            Ending::Ended { by: Some(m), .. } => bare(m),
            Ending::Stopped {
                at, code, message, ..
            } => {
                at.iter_mut().for_each(bare);
                *message = code.description().to_string();
            }
            Ending::NotJudged { code, message } => *message = code.description().to_string(),
            _ => {}
        }
        if let RecordCheck::Disagrees(why) = &mut self.record {
            *why = Code::ResultMismatch.description().to_string();
        }
        self
    }

    /// The verdict on one line (the HTML report's): the ending, the recorded result, the
    /// findings, joined by ` · `. Text from the log is not escaped.
    pub fn line(&self) -> String {
        format!(
            "{} · {} · findings: {}",
            capitalised(&self.ending_text()),
            self.record_text(),
            self.counts_text()
        )
    }

    /// The verdict block of the human report: a headline naming the game and its players,
    /// then the ending, the recorded result and the findings by severity. Every text from
    /// the log is escaped for the terminal.
    pub fn render(&self) -> String {
        let names = sides(self.game);
        // Names and tag values stay on the headline's line ([`escape::visible_line`]).
        let line = |s: &str| escape::visible_line(s).into_owned();
        let mut head = format!(
            "game {} of {}",
            self.index.saturating_add(1),
            line(&self.source)
        );
        if let Some(g) = self.game {
            head.push_str(&format!(": {}", g.as_str()));
        }
        if self.players.iter().any(Option::is_some) {
            let who = |s: usize| {
                format!(
                    "{} ({})",
                    line(self.players[s].as_deref().unwrap_or("?")),
                    names[s]
                )
            };
            head.push_str(&format!(", {} vs {}", who(0), who(1)));
        }
        let text = format!(
            "{head}\n  verdict: {}\n  result: {}\n  findings: {}\n",
            line(&self.ending_text()),
            line(&self.record_text()),
            self.counts_text()
        );
        escape::visible(&text).into_owned()
    }
}

/// How the moves leave `g`.
fn ending(g: &GameReport) -> Ending {
    let plies = g.plies as u32;
    if let Some(o) = &g.outcome {
        return Ending::Ended {
            verdict: Verdict {
                result: o.result,
                reason: o.reason,
            },
            ply: o.ply,
            by: g.key_move.clone(),
        };
    }
    let first_error = |pred: &dyn Fn(&Finding) -> bool| {
        g.findings
            .iter()
            .find(|f| f.severity() == Severity::Error && pred(f))
            .map(|f| (f.code, f.message.clone()))
    };
    if g.stopped {
        let at = g.key_move.clone();
        let stop = at.as_ref().map(|m| m.ply);
        let found = first_error(&|f| f.ply == stop && f.ply.is_some())
            .or_else(|| first_error(&|f| f.ply.is_none()));
        let (code, message) = found.unwrap_or((Code::IllegalMove, String::new()));
        return Ending::Stopped {
            plies,
            at,
            code,
            message,
        };
    }
    if g.replay.is_none() {
        let (code, message) = first_error(&|f| f.code.is_unusable())
            .or_else(|| first_error(&|_| true))
            .unwrap_or((Code::ParseError, String::new()));
        return Ending::NotJudged { code, message };
    }
    Ending::Unfinished { plies }
}

/// Whether the recorded result of `g` agrees with the moves.
fn record_check(g: &GameReport) -> RecordCheck {
    if let Some(f) = g.findings.iter().find(|f| f.code == Code::ResultMismatch) {
        return RecordCheck::Disagrees(f.message.clone());
    }
    // A result or termination that cannot be read, or a termination word arbiter does not
    // know (a record-defect: it may name the off-board end the result records).
    let unreadable = |f: &&Finding| match f.code {
        Code::ParseError => matches!(f.rule, Rule::LogTerminations | Rule::LogTags),
        Code::RecordDefect => f.rule == Rule::LogTerminations,
        _ => false,
    };
    if let Some(f) = g.findings.iter().find(unreadable) {
        return RecordCheck::Unreadable(f.message.clone());
    }
    match g.result {
        _ if g.stopped || g.game.is_none() => RecordCheck::NotChecked,
        None => RecordCheck::Missing,
        Some(RecordedResult::Unknown) => RecordCheck::Unknown,
        Some(_) => RecordCheck::Agrees,
    }
}
