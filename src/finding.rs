//! Findings: what every stage reports, with a stable code (`../shared/rulings.md` §5), the ply
//! it belongs to, the rule it breaks and the bytes of the log it points at.

pub use crate::codes::{Code, Severity};
pub use crate::rulebook::Rule;
use crate::types::Span;
use crate::types::Verdict;

/// `s` cut to at most `max` characters, ending in `…` when cut.
fn cap(s: String, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

/// Quotes user text for a message: at most 40 characters (then `…`), control characters
/// escaped, so a message stays one readable line whatever the input holds.
pub fn excerpt(s: &str) -> String {
    let mut out = String::new();
    for (n, c) in s.chars().enumerate() {
        if n == 40 {
            out.push('…');
            break;
        }
        out.extend(c.escape_debug());
    }
    out
}

/// A secondary place in the log that explains a finding ("first occurrence here").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// Bytes of the log.
    pub span: Span,
    /// What that place shows.
    pub text: String,
}

/// One finding: a code, where it is, what rule it breaks and how to act on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The stable code; its severity is [`Code::severity`].
    pub code: Code,
    /// The ply (1-based, in the order played) the finding belongs to; `None` for findings about
    /// the record as a whole (tags, setups, parse errors).
    pub ply: Option<u32>,
    /// The line of play the ply belongs to: 0 the main line (the game), `n` the record's
    /// variation `n` ([`crate::record::GameRecord::variations`]`[n - 1]`), whose plies count
    /// from the game's start like the main line's.
    pub line: usize,
    /// One-line headline, lower case, no trailing period.
    pub message: String,
    /// The rule broken; [`Rule::citation`] says where it is written (`rulings §1.1 ...`).
    pub rule: Rule,
    /// What to do about it.
    pub help: Option<String>,
    /// The bytes the finding points at.
    pub span: Span,
    /// The text of the primary label (shown under the span).
    pub label: String,
    /// Further places (earlier plies of a run, a first occurrence).
    pub labels: Vec<Label>,
    /// Other plies (1-based) the finding rests on: the earlier moves of a run, the chase, the
    /// repetition window. `arbiter claim` cites them as evidence.
    pub evidence: Vec<u32>,
    /// For a Xiangqi repetition finding (rulings §4.3): the result and the reason the third
    /// occurrence gives (`perpetual-check`, `perpetual-chase` or `repetition`), whether it
    /// ended the game or (`Repetition "claim"`) play went on. `arbiter claim` answers from it.
    pub verdict: Option<Verdict>,
}

impl Finding {
    /// A finding with no help and no secondary labels; `label` defaults to the message.
    /// A message longer than 300 characters (say, a quoted 10 MB "move") is cut with `…`.
    pub fn new(code: Code, span: Span, message: impl Into<String>, rule: Rule) -> Self {
        let message = cap(message.into(), 300);
        Finding {
            code,
            ply: None,
            line: 0,
            label: String::new(),
            message,
            rule,
            help: None,
            span,
            labels: Vec::new(),
            evidence: Vec::new(),
            verdict: None,
        }
    }
    /// Sets the plies the finding rests on.
    pub fn with_evidence(mut self, plies: Vec<u32>) -> Self {
        self.evidence = plies;
        self
    }
    /// Sets the repetition verdict ([`Finding::verdict`]).
    pub fn with_verdict(mut self, verdict: Verdict) -> Self {
        self.verdict = Some(verdict);
        self
    }
    /// Sets the ply (1-based).
    pub fn at_ply(mut self, ply: u32) -> Self {
        self.ply = Some(ply);
        self
    }
    /// Sets the line of play ([`Finding::line`]).
    pub fn on_line(mut self, line: usize) -> Self {
        self.line = line;
        self
    }
    /// Sets the help line.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
    /// Sets the primary label's text.
    pub fn label(mut self, text: impl Into<String>) -> Self {
        self.label = text.into();
        self
    }
    /// Adds a secondary label.
    pub fn with_label(mut self, span: Span, text: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            text: text.into(),
        });
        self
    }
    /// The code's severity.
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }
    /// The ply whose position shows this finding when the replay applied `played` plies: its
    /// own ply when played (the offending move is then the last move), else the last position
    /// before it; the last position for a finding without a ply (docs/show.md).
    pub fn board_ply(&self, played: u32) -> u32 {
        match self.ply {
            Some(p) if p <= played => p,
            Some(p) => p.saturating_sub(1).min(played),
            None => played,
        }
    }
}
