//! `arbiter claim`: does a player's claim hold in the position after a given ply?
//!
//! Claims are answered from the judged game (its replay and findings), never by re-parsing:
//! - `draw`: Veldslag's no-capture thresholds (rulings §1.6: at or after 80 moves per side
//!   without an attack the claim holds; from 50 it is at the admin's discretion and does not
//!   count as holding; before 50 it does not hold) or a drawn end on the board (neither player
//!   can move, rulings §1.1);
//! - `two-squares`: the move at that ply broke the two-squares rule (rulings §1.4);
//! - `chase`: the move at that ply broke the more-squares rule (rulings §1.5);
//! - `repetition` (and `draw` in Jungle): the position after that ply is a third occurrence
//!   with the same side to move and the same legal moves (rulings §3);
//! - Xiangqi (rulings §4.3): `repetition` holds when the position after that ply stands for
//!   the third time (or more); `perpetual-check` / `perpetual-chase` when it does and the
//!   window's verdict is that one side checked / chased perpetually (that side loses);
//!   `draw` when the game ended drawn there (repetition, move limit) or the repetition's
//!   verdict is a draw (in `Repetition "claim"` mode, where play went on).

use crate::checks::no_capture;
use crate::finding::Code;
use crate::pipeline::GameReport;
use crate::rules::GameId;
use crate::types::RecordedResult;
use serde::Serialize;

/// What a player claims.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// A draw.
    Draw,
    /// The opponent's move broke the two-squares rule.
    TwoSquares,
    /// The opponent's move broke the more-squares (chase) rule.
    Chase,
    /// The position is a third occurrence (Jungle: a claimable draw, rulings §3; Xiangqi:
    /// the game ends there, rulings §4.3).
    Repetition,
    /// Xiangqi: the opponent checked perpetually in the repetition that ends here (§4.3).
    PerpetualCheck,
    /// Xiangqi: the opponent chased perpetually in the repetition that ends here (§4.3).
    PerpetualChase,
}

impl Claim {
    /// Reads `draw`, `two-squares`, `chase`, `repetition`, `perpetual-check` or
    /// `perpetual-chase`.
    pub fn parse(s: &str) -> Option<Claim> {
        match s {
            "draw" => Some(Claim::Draw),
            "two-squares" => Some(Claim::TwoSquares),
            "chase" | "more-squares" => Some(Claim::Chase),
            "repetition" | "threefold" => Some(Claim::Repetition),
            "perpetual-check" => Some(Claim::PerpetualCheck),
            "perpetual-chase" => Some(Claim::PerpetualChase),
            _ => None,
        }
    }
    /// The claim's name as the CLI spells it.
    pub fn as_str(&self) -> &'static str {
        match self {
            Claim::Draw => "draw",
            Claim::TwoSquares => "two-squares",
            Claim::Chase => "chase",
            Claim::Repetition => "repetition",
            Claim::PerpetualCheck => "perpetual-check",
            Claim::PerpetualChase => "perpetual-chase",
        }
    }
}

/// The answer to a claim (the JSON of `arbiter claim --format json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Answer {
    /// The claim as given.
    pub claim: &'static str,
    /// The ply after which the claim is made (0 = the start position).
    pub ply: u32,
    /// True when the claim holds.
    pub holds: bool,
    /// True when the decision is the admin's (a Veldslag draw between 50 and 80 moves per
    /// side); `holds` is then false.
    pub discretionary: bool,
    /// Why, in one or two sentences.
    pub reason: String,
    /// The rule's finding code (`no-capture-80`, `two-squares-rule`, ...).
    pub rule: &'static str,
    /// The plies that prove it (1-based), oldest first.
    pub evidence_plies: Vec<u32>,
}

/// Why a claim cannot be judged (exit code 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unjudgeable(pub String);

/// Answers `claim` in the position after ply `ply` of the judged game `g`.
pub fn judge(g: &GameReport, claim: Claim, ply: u32) -> Result<Answer, Unjudgeable> {
    let Some(replay) = &g.replay else {
        return Err(Unjudgeable(
            "the game could not be judged (see `arbiter check`)".into(),
        ));
    };
    let played = replay.plies.len() as u32;
    if replay.stopped && played == 0 {
        if let Some(f) = g
            .findings
            .iter()
            .find(|f| f.ply.is_none() && f.severity() == crate::finding::Severity::Error)
        {
            return Err(Unjudgeable(format!(
                "the game cannot start: {} ({}; see `arbiter check`)",
                f.message, f.code
            )));
        }
    }
    if let Some(o) = replay
        .outcome
        .as_ref()
        .filter(|o| o.ply < ply && ply > played)
    {
        let goes_on = g
            .findings
            .iter()
            .any(|f| f.code == crate::finding::Code::MovesAfterEnd);
        return Err(Unjudgeable(if goes_on {
            format!(
                "the game ended on ply {} ({}); the record goes on, but there is no position after ply {ply} to claim in",
                o.ply, o.reason
            )
        } else {
            format!(
                "the game ended on ply {} ({}), its last ply; there is no position after ply {ply} to claim in",
                o.ply, o.reason
            )
        }));
    }
    if ply > played {
        return Err(Unjudgeable(if replay.stopped {
            format!("the replay stopped after ply {played} (see `arbiter check`); ply {ply} cannot be judged")
        } else {
            format!("the game has {played} plies; there is no ply {ply}")
        }));
    }
    let mut answer = Answer {
        claim: claim.as_str(),
        ply,
        holds: false,
        discretionary: false,
        reason: String::new(),
        rule: "",
        evidence_plies: Vec::new(),
    };
    if let Some(o) = &replay.outcome {
        if o.ply < ply {
            answer.reason = format!("the game had already ended on ply {} ({})", o.ply, o.reason);
            answer.rule = "moves-after-end";
            answer.evidence_plies = vec![o.ply];
            return Ok(answer);
        }
    }
    let game = g.game;
    if game == Some(GameId::Jungle) && matches!(claim, Claim::Draw | Claim::Repetition) {
        // Jungle's only on-board draw is the claimable threefold repetition (rulings §3).
        let a = crate::games::jungle::claim::answer(replay, &g.findings, ply);
        answer.holds = a.holds;
        answer.reason = a.reason;
        answer.rule = a.rule;
        answer.evidence_plies = a.evidence_plies;
        return Ok(answer);
    }
    if matches!(game, Some(GameId::Xiangqi | GameId::Jieqi)) {
        if let Some(a) = xiangqi_repetition(g, claim, ply) {
            return Ok(a);
        }
    }
    match claim {
        Claim::PerpetualCheck | Claim::PerpetualChase => {
            answer.rule = if claim == Claim::PerpetualCheck {
                Code::PerpetualCheck.as_str()
            } else {
                Code::PerpetualChase.as_str()
            };
            answer.reason = format!(
                "{} has no perpetual check or chase rule",
                game.map_or("this game", |g| g.as_str())
            );
        }
        Claim::Repetition => {
            answer.rule = Code::ThreefoldRepetition.as_str();
            answer.reason = format!(
                "{} has no repetition claim; see `arbiter check` for its repetition rules",
                game.map_or("this game", |g| g.as_str())
            );
        }
        Claim::TwoSquares | Claim::Chase => {
            let (code, what) = if claim == Claim::TwoSquares {
                (Code::TwoSquaresRule, "two-squares rule (rulings §1.4)")
            } else {
                (Code::MoreSquaresRule, "more-squares rule (rulings §1.5)")
            };
            answer.rule = code.as_str();
            let has_rule = match claim {
                Claim::TwoSquares => g.parameters.two_squares.is_some(),
                _ => g.parameters.more_squares.is_some(),
            };
            if !has_rule {
                answer.reason = format!(
                    "the {what} is a Stratego-family rule; {} has none",
                    game.map_or("this game", |g| g.as_str())
                );
                return Ok(answer);
            }
            if ply == 0 {
                answer.reason = "no move has been played".into();
                return Ok(answer);
            }
            match g
                .findings
                .iter()
                .find(|f| f.code == code && f.ply == Some(ply))
            {
                Some(f) => {
                    answer.holds = true;
                    answer.reason = format!("ply {ply} broke the {what}: {}", f.message);
                    answer.evidence_plies = f.evidence.clone();
                    answer.evidence_plies.push(ply);
                }
                None => {
                    let off = match claim {
                        Claim::TwoSquares => {
                            g.parameters.two_squares == Some(crate::rules::TwoSquares::Off)
                        }
                        _ => g.parameters.more_squares == Some(false),
                    };
                    answer.reason = if off {
                        format!("the {what} is off for this game")
                    } else {
                        format!("ply {ply} does not break the {what}")
                    };
                }
            }
        }
        Claim::Draw => {
            if let Some(o) = &replay.outcome {
                if o.ply <= ply && o.result == RecordedResult::Draw {
                    answer.holds = true;
                    answer.reason = format!("the game ended drawn on ply {} ({})", o.ply, o.reason);
                    answer.rule = o.reason.as_str();
                    answer.evidence_plies = vec![o.ply];
                    return Ok(answer);
                }
            }
            if game == Some(GameId::Veldslag) {
                let since = no_capture::plies_since_capture(&replay.plies, ply);
                let last = no_capture::last_capture(&replay.plies, ply);
                let from = last.unwrap_or(0);
                let since_text = match last {
                    Some(c) => format!("since the attack on ply {c}"),
                    None => "since the start".to_string(),
                };
                let moves = since / 2;
                if since >= no_capture::REQUEST_PLIES {
                    answer.holds = true;
                    answer.rule = Code::NoCapture80.as_str();
                    answer.reason = format!(
                        "{since} plies ({moves} moves per side) without an attack {since_text}: at 80 moves per side a draw is declared on request"
                    );
                    answer.evidence_plies = last.into_iter().collect();
                    answer.evidence_plies.push(from + no_capture::REQUEST_PLIES);
                } else if since >= no_capture::DISCRETION_PLIES {
                    answer.discretionary = true;
                    answer.rule = Code::NoCapture50.as_str();
                    answer.reason = format!(
                        "{since} plies ({moves} moves per side) without an attack {since_text}: between 50 and 80 moves per side a draw is at the admin's discretion (no progress); on request only from ply {}",
                        from + no_capture::REQUEST_PLIES
                    );
                    answer.evidence_plies = last.into_iter().collect();
                    answer
                        .evidence_plies
                        .push(from + no_capture::DISCRETION_PLIES);
                } else {
                    answer.rule = Code::NoCapture50.as_str();
                    answer.reason = format!(
                        "only {since} plies ({moves} moves per side) without an attack {since_text}; the admin's threshold is 50 moves per side (ply {})",
                        from + no_capture::DISCRETION_PLIES
                    );
                    answer.evidence_plies = last.into_iter().collect();
                }
            } else if matches!(game, Some(GameId::Xiangqi | GameId::Jieqi)) {
                // Rulings §4.2-§4.3: a third occurrence (answered above when it stands) or the
                // no-capture limit; the record's plies only (a FEN's halfmove count is the
                // engine's, and its move-limit outcome is answered above).
                let limit = g.parameters.no_capture_limit.unwrap_or(0);
                let since = no_capture::plies_since_capture(&replay.plies, ply);
                answer.rule = Code::MoveLimit.as_str();
                answer.reason = if limit == 0 {
                    format!("no position stands for the third time after ply {ply}, and xiangqi has no no-capture limit unless a NoCaptureLimit tag sets one (rulings §4.2, §4.3)")
                } else {
                    format!(
                        "no position stands for the third time after ply {ply}, and the {limit}-move limit (rulings §4.2) needs {} plies without a capture; the record's moves have gone {since} plies without one up to here, counted from the last capture or the start position (plus a FEN's halfmove count, if it gives one)",
                        limit.saturating_mul(2)
                    )
                };
            } else {
                answer.rule = "no-legal-move";
                answer.reason = format!(
                    "{} has no draw rule that applies here: a draw needs agreement, or both players unable to move",
                    game.map_or("this game", |g| g.as_str())
                );
            }
        }
    }
    Ok(answer)
}

/// Xiangqi and Jieqi repetition claims (rulings §4.3), from the repetition finding the replay
/// made at `ply` (its [`crate::finding::Finding::verdict`]); `None` for claims these games
/// answer like the others (a `draw` with no repetition at `ply`, `two-squares`, `chase`).
fn xiangqi_repetition(g: &GameReport, claim: Claim, ply: u32) -> Option<Answer> {
    let rep = g
        .findings
        .iter()
        .find(|f| f.ply == Some(ply) && f.verdict.is_some());
    let wanted = match claim {
        Claim::Repetition => None,
        Claim::PerpetualCheck => Some("perpetual-check"),
        Claim::PerpetualChase => Some("perpetual-chase"),
        Claim::Draw => Some("repetition"),
        Claim::TwoSquares | Claim::Chase => return None,
    };
    let mut a = Answer {
        claim: claim.as_str(),
        ply,
        holds: false,
        discretionary: false,
        reason: String::new(),
        rule: match claim {
            Claim::PerpetualCheck => Code::PerpetualCheck.as_str(),
            Claim::PerpetualChase => Code::PerpetualChase.as_str(),
            _ => Code::ThreefoldRepetition.as_str(),
        },
        evidence_plies: Vec::new(),
    };
    // A third (or later) occurrence that was not reported: in Repetition "claim" mode a
    // repetition that goes on is reported once per window (docs/xiangqi.md); it carries the
    // verdict of the one reported last.
    let count = occurrences(g, ply);
    let (rep, going_on) = match rep {
        Some(f) => (Some(f), false),
        None if count >= 3 => (
            g.findings
                .iter()
                .rev()
                .find(|f| f.verdict.is_some() && f.ply.is_some_and(|p| p < ply)),
            true,
        ),
        None => (None, false),
    };
    let Some(f) = rep else {
        if claim == Claim::Draw {
            return None;
        }
        a.reason = if ply == 0 {
            "no move has been played".into()
        } else {
            format!("the position after ply {ply} does not stand for the third time")
        };
        return Some(a);
    };
    let v = f.verdict.unwrap_or(crate::types::Verdict {
        result: RecordedResult::Draw,
        reason: crate::types::EndReason::Repetition,
    });
    let (result, reason) = (v.result, v.reason.as_str());
    a.evidence_plies = f.evidence.clone();
    a.holds = wanted.is_none_or(|w| w == reason);
    let winner = match result {
        RecordedResult::FirstWins => "Red",
        _ => "Black",
    };
    let verdict = match reason {
        "repetition" => "a draw by repetition".to_string(),
        r => format!("{r}, {winner} wins ({})", result.as_str()),
    };
    let message = if going_on {
        format!(
            "the position after ply {ply} stands for the {} time, in the repetition reported at ply {}: {}",
            crate::rules::ordinal(count),
            f.ply.unwrap_or(0),
            f.message
        )
    } else {
        f.message.clone()
    };
    a.reason = if a.holds {
        format!("{message}; the verdict is {verdict}")
    } else {
        format!(
            "the verdict is {verdict}, not {}: {message}",
            claim.as_str()
        )
    };
    Some(a)
}

/// How often the position after ply `ply` has stood on the board since the last capture (the
/// replay's position keys; ply 0 is the start).
fn occurrences(g: &GameReport, ply: u32) -> usize {
    let Some(replay) = &g.replay else { return 0 };
    let plies = &replay.plies[..(ply as usize).min(replay.plies.len())];
    let key = plies.last().map_or(replay.start_key, |p| p.key);
    match plies.iter().rposition(|p| p.capture) {
        // The capture's own position starts the stretch.
        Some(i) => plies[i..].iter().filter(|p| p.key == key).count(),
        None => {
            usize::from(replay.start_key == key) + plies.iter().filter(|p| p.key == key).count()
        }
    }
}

/// How `arbiter claim` prints its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimFormat {
    /// A few lines for people.
    Human,
    /// One JSON object.
    Json,
}

impl Answer {
    /// The answer as `arbiter claim` prints it for people.
    pub fn render_human(&self) -> String {
        let verdict = if self.holds {
            "holds"
        } else if self.discretionary {
            "is at the admin's discretion"
        } else {
            "does not hold"
        };
        let mut t = format!("claim `{}` after ply {}: {verdict}\n", self.claim, self.ply);
        t.push_str(&format!("  reason: {}\n", self.reason));
        if !self.rule.is_empty() {
            t.push_str(&format!("  rule: {}\n", self.rule));
        }
        if !self.evidence_plies.is_empty() {
            let list: Vec<String> = self.evidence_plies.iter().map(|p| p.to_string()).collect();
            let noun = if list.len() == 1 { "ply" } else { "plies" };
            t.push_str(&format!("  evidence: {noun} {}\n", list.join(", ")));
        }
        t
    }
}

/// What one `arbiter claim` asks: the claim, the ply after which it is made, the game of
/// the input and the parameters it is judged under.
#[derive(Debug, Clone)]
pub struct ClaimRequest {
    /// The claim.
    pub claim: Claim,
    /// The position after this ply (0: the start).
    pub ply: u32,
    /// Which game of the input (from 0).
    pub game_index: usize,
    /// Which line of play of the game (0 the main line, `n` its variation `n`).
    pub line: usize,
    /// Parameter overrides.
    pub overrides: crate::rules::Overrides,
    /// How to print the answer.
    pub format: ClaimFormat,
    /// Colours in the findings printed on failure.
    pub color: bool,
}

/// `arbiter claim`: judges the game `req.game_index` of `input` and answers the claim on
/// `out` (exit [`crate::types::ExitStatus::Clean`] when it holds, [`crate::types::ExitStatus::Findings`] when it does
/// not or the admin decides, [`crate::types::ExitStatus::Unusable`] when it cannot be judged, with why on
/// `err`).
pub fn run(
    input: &crate::input::Input,
    req: &ClaimRequest,
    out: &mut dyn std::io::Write,
    err: &mut dyn std::io::Write,
) -> crate::types::ExitStatus {
    use crate::types::ExitStatus;
    let Some((chunk, rec)) = crate::pipeline::line_or_say(input, req.game_index, req.line, err)
    else {
        return ExitStatus::Unusable;
    };
    let opts = crate::pipeline::Options {
        overrides: req.overrides.clone(),
    };
    let g = crate::pipeline::check_record(&chunk.source, &rec, &opts);
    match judge(&g, req.claim, req.ply) {
        Err(e) => {
            let shown: Vec<_> = g
                .findings
                .iter()
                .filter(|f| f.code.is_unusable() || f.code == Code::IllegalMove)
                .cloned()
                .collect();
            crate::report::human::print_findings(&chunk, &shown, g.index, req.color, err);
            let _ = writeln!(err, "arbiter: cannot judge the claim: {}", e.0);
            ExitStatus::Unusable
        }
        Ok(ans) => {
            let text = match req.format {
                ClaimFormat::Json => {
                    format!(
                        "{}\n",
                        serde_json::to_string_pretty(&ans).unwrap_or_default()
                    )
                }
                ClaimFormat::Human => ans.render_human(),
            };
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                let _ = writeln!(err, "arbiter: cannot write to standard output: {e}");
                return ExitStatus::Unusable;
            }
            if ans.holds {
                ExitStatus::Clean
            } else {
                ExitStatus::Findings
            }
        }
    }
}
