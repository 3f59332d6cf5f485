//! Findings: what every stage reports, with a stable code (`../shared/rulings.md` §5), the ply
//! it belongs to, the rule it breaks and the bytes of the log it points at.

pub use crate::rulebook::Rule;
use crate::types::Span;
use serde::Serialize;

/// How serious a finding is (rulings §5). Errors make the exit code 1, `parse-error` and
/// `unsupported-game` make it 2; warnings and infos never change it by themselves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Information: the rules say something happened, nobody did wrong.
    Info,
    /// Legal but suspect, or a source defect that was repaired.
    Warning,
    /// A broken rule, or input that could not be judged.
    Error,
}

impl Severity {
    /// `error`, `warning` or `info`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident = $text:literal, $sev:ident; )*) => {
        /// The stable finding codes of rulings §5. Their kebab-case text never changes.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $( $(#[$doc])* $variant, )*
        }
        impl Code {
            /// Every code, in the order of rulings §5.
            pub const ALL: &'static [Code] = &[ $(Code::$variant,)* ];
            /// The kebab-case code (`illegal-move`).
            pub fn as_str(&self) -> &'static str {
                match self { $( Code::$variant => $text, )* }
            }
            /// The code's fixed severity.
            pub fn severity(&self) -> Severity {
                match self { $( Code::$variant => Severity::$sev, )* }
            }
            /// Reads a kebab-case code.
            pub fn parse(s: &str) -> Option<Code> {
                match s { $( $text => Some(Code::$variant), )* _ => None }
            }
        }
    };
}

codes! {
    /// The log (or a game in it) could not be read.
    ParseError = "parse-error", Error;
    /// A ruleset or variant arbiter does not judge; the game is not checked.
    UnsupportedGame = "unsupported-game", Error;
    /// A setup breaks the ruleset's counts, zones or squares.
    SetupInvalid = "setup-invalid", Error;
    /// A move the rules do not allow; the replay of that game stops there.
    IllegalMove = "illegal-move", Error;
    /// Stratego family: a shuttle run longer than the limit (rulings §1.4).
    TwoSquaresRule = "two-squares-rule", Error;
    /// Stratego family: a chasing move repeating a position (rulings §1.5).
    MoreSquaresRule = "more-squares-rule", Error;
    /// Jungle: the forbidden repeating capture-threat move (rulings §3).
    JungleRepetition = "jungle-repetition", Error;
    /// Xiangqi/Jieqi: the side that checked perpetually (rulings §4.3).
    PerpetualCheck = "perpetual-check", Error;
    /// Xiangqi/Jieqi: the side that chased perpetually (rulings §4.3).
    PerpetualChase = "perpetual-chase", Error;
    /// A move after the game had ended on the board.
    MovesAfterEnd = "moves-after-end", Error;
    /// The recorded result or termination does not follow from the moves.
    ResultMismatch = "result-mismatch", Error;
    /// A known defect of a source format, repaired (named with the repair).
    RecordDefect = "record-defect", Warning;
    /// Legal but unusual setup.
    SetupUnusual = "setup-unusual", Warning;
    /// The game ended by a move limit.
    MoveLimit = "move-limit", Info;
    /// A position occurred for the third time.
    ThreefoldRepetition = "threefold-repetition", Info;
    /// Veldslag: 50 moves per side without an attack.
    NoCapture50 = "no-capture-50", Info;
    /// Veldslag: 80 moves per side without an attack.
    NoCapture80 = "no-capture-80", Info;
    /// The log records no result.
    NoResult = "no-result", Info;
}

impl Code {
    /// One sentence on what the code means (SARIF rule descriptions, `docs/errors.md`).
    pub fn description(&self) -> &'static str {
        match self {
            Code::ParseError => "The log, or one game in it, could not be read: the game is not judged.",
            Code::UnsupportedGame => "The ruleset or variant is one arbiter does not judge: the game is not checked.",
            Code::SetupInvalid => "A setup breaks the ruleset's piece counts, setup zones or squares.",
            Code::IllegalMove => "A move the rules do not allow; the replay of that game stops there.",
            Code::TwoSquaresRule => "A piece moved between the same two squares more often in a row than the two-squares rule allows.",
            Code::MoreSquaresRule => "A chasing move produced a position that already occurred since the chase began (more-squares rule).",
            Code::JungleRepetition => "A Jungle move created a position for the third time while able to capture the piece just moved.",
            Code::PerpetualCheck => "The side that gave check with every move of the repetition loses.",
            Code::PerpetualChase => "The side that chased the same piece with every move of the repetition loses.",
            Code::MovesAfterEnd => "The record goes on after the game ended on the board.",
            Code::ResultMismatch => "The recorded result or termination does not follow from the moves.",
            Code::RecordDefect => "A known defect of the source format, repaired as described.",
            Code::SetupUnusual => "A setup that is legal but unusual.",
            Code::MoveLimit => "The game ended by a move limit.",
            Code::ThreefoldRepetition => "A position occurred for the third time.",
            Code::NoCapture50 => "Veldslag: 50 moves per side without an attack; an admin may declare a draw.",
            Code::NoCapture80 => "Veldslag: 80 moves per side without an attack; a draw may be declared on request.",
            Code::NoResult => "The log records no result.",
        }
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

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
    pub verdict: Option<(crate::types::RecordedResult, &'static str)>,
}

impl Finding {
    /// A finding with no help and no secondary labels; `label` defaults to the message.
    /// A message longer than 300 characters (say, a quoted 10 MB "move") is cut with `…`.
    pub fn new(code: Code, span: Span, message: impl Into<String>, rule: Rule) -> Self {
        let message = cap(message.into(), 300);
        Finding {
            code,
            ply: None,
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
    pub fn with_verdict(
        mut self,
        result: crate::types::RecordedResult,
        reason: &'static str,
    ) -> Self {
        self.verdict = Some((result, reason));
        self
    }
    /// Sets the ply (1-based).
    pub fn at_ply(mut self, ply: u32) -> Self {
        self.ply = Some(ply);
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
}
