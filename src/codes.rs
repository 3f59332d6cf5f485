//! The finding codes: one table of every code arbiter reports (rulings §5), with its severity,
//! the rules it stands for, a one-line description and its documentation. `docs/errors.md`,
//! SARIF's `rules`, `--select`/`--ignore` and `arbiter explain` all read this table; a test
//! fails when the generated `docs/errors.md` and this table drift apart.

use serde::Serialize;

/// How serious a finding is (rulings §5). Errors make the exit code 1, `parse-error` and
/// `unsupported-game` make it 2; warnings and infos never change it by themselves.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, schemars::JsonSchema,
)]
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

/// A code's documentation, as `docs/errors.md` and `arbiter explain` print it (Markdown).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeDoc {
    /// What the code means and when it is reported.
    pub meaning: &'static str,
    /// Bundled fixtures (or corpus records) that show it.
    pub example: Option<&'static str>,
    /// What an admin or a user does about it.
    pub what_to_do: Option<&'static str>,
}

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident = $text:literal, $sev:ident, $source:literal, $summary:literal; )*) => {
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
            /// The sections of the rulings (or the format document) the code stands for.
            pub fn source(&self) -> &'static str {
                match self { $( Code::$variant => $source, )* }
            }
            /// One sentence on what the code means (SARIF rule descriptions, `explain`).
            pub fn description(&self) -> &'static str {
                match self { $( Code::$variant => $summary, )* }
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
    ParseError = "parse-error", Error, "docs/log-format.md",
        "The log, or one game in it, could not be read: the game is not judged.";
    /// A ruleset or variant arbiter does not judge; the game is not checked.
    UnsupportedGame = "unsupported-game", Error, "rulings §5",
        "The ruleset or variant is one arbiter does not judge: the game is not checked.";
    /// A setup breaks the ruleset's counts, zones or squares.
    SetupInvalid = "setup-invalid", Error, "rulings §1.1, §1.2, §2, §3, §4",
        "A setup breaks the ruleset's piece counts, setup zones or squares.";
    /// A move the rules do not allow; the replay of that game stops there.
    IllegalMove = "illegal-move", Error, "rulings §1.1, §1.2, §2, §3, §4.1, §4.2",
        "A move the rules do not allow; the replay of that game stops there.";
    /// Stratego family: a shuttle run longer than the limit (rulings §1.4).
    TwoSquaresRule = "two-squares-rule", Error, "rulings §1.4",
        "A piece moved between the same two squares more often in a row than the two-squares rule allows.";
    /// Stratego family: a chasing move repeating a position (rulings §1.5).
    MoreSquaresRule = "more-squares-rule", Error, "rulings §1.5",
        "A chasing move produced a position that already occurred since the chase began (more-squares rule).";
    /// Jungle: the forbidden repeating capture-threat move (rulings §3).
    JungleRepetition = "jungle-repetition", Error, "rulings §3",
        "A Jungle move created a position for the third time while able to capture the piece just moved.";
    /// Xiangqi/Jieqi: the side that checked perpetually (rulings §4.3).
    PerpetualCheck = "perpetual-check", Error, "rulings §4.3",
        "The side that gave check with every move of the repetition loses.";
    /// Xiangqi/Jieqi: the side that chased perpetually (rulings §4.3).
    PerpetualChase = "perpetual-chase", Error, "rulings §4.3",
        "The side that chased the same piece with every move of the repetition loses.";
    /// A move after the game had ended on the board.
    MovesAfterEnd = "moves-after-end", Error, "rulings §1.3",
        "The record goes on after the game ended on the board.";
    /// The recorded result or termination does not follow from the moves.
    ResultMismatch = "result-mismatch", Error, "rulings §1.3",
        "The recorded result or termination does not follow from the moves.";
    /// A known defect of a source format, repaired (named with the repair).
    RecordDefect = "record-defect", Warning, "rulings §5",
        "A known defect of the source format, repaired as described.";
    /// Legal but unusual setup.
    SetupUnusual = "setup-unusual", Warning, "rulings §5",
        "A setup that is legal but unusual.";
    /// The game ended by a move limit.
    MoveLimit = "move-limit", Info, "rulings §4.2",
        "The game ended by a move limit.";
    /// A position occurred for the third time.
    ThreefoldRepetition = "threefold-repetition", Info, "rulings §3, §4.3",
        "A position occurred for the third time.";
    /// Veldslag: 50 moves per side without an attack.
    NoCapture50 = "no-capture-50", Info, "rulings §1.6",
        "Veldslag: 50 moves per side without an attack; an admin may declare a draw.";
    /// Veldslag: 80 moves per side without an attack.
    NoCapture80 = "no-capture-80", Info, "rulings §1.6",
        "Veldslag: 80 moves per side without an attack; a draw may be declared on request.";
    /// The log records no result.
    NoResult = "no-result", Info, "rulings §1.3",
        "The log records no result.";
}

impl Code {
    /// True for the codes that make the input unusable (exit code 2): the game could not be
    /// read or judged at all.
    pub fn is_unusable(&self) -> bool {
        matches!(self, Code::ParseError | Code::UnsupportedGame)
    }

    /// The code's documentation (`docs/errors.md`, `arbiter explain`).
    pub fn doc(&self) -> CodeDoc {
        DOCS[*self as usize].1
    }
}

// Every row stands at its code's place, and every code has one: checked when compiling.
const _: () = {
    let mut i = 0;
    while i < DOCS.len() {
        assert!(DOCS[i].0 as usize == i);
        i += 1;
    }
    assert!(DOCS.len() == Code::ALL.len());
};

/// Every code's documentation, in the order of [`Code::ALL`].
const DOCS: &[(Code, CodeDoc)] = &[
    (
        Code::ParseError,
        CodeDoc {
            meaning: r#"The log, or one game in it, could not be read: a tag, setup row, move or
result that is not in the grammar (`docs/log-format.md`), an unknown `Game` tag, a game with
no ruleset (no `Game` or `Variant` tag naming one, nothing in its file's text that shows one,
no `--game`: one finding a file, on its first such game), a file that is not text, an
unreadable Gravon XML record, a bad parameter tag value. The game is not judged; the other games of the file and
the other files still are."#,
            example: Some(
                r#"`fixtures/jungle/movement_errors.arb` (`` `Eg3` is not a move ``);
`fixtures/jieqi/reveal-missing.arb` (a Jieqi reveal that does not say what it turned up)."#,
            ),
            what_to_do: Some(
                r#"correct the text at the span shown; the label says what was expected there."#,
            ),
        },
    ),
    (
        Code::UnsupportedGame,
        CodeDoc {
            meaning: r#"A ruleset or variant arbiter does not judge: Gravon's "classicfree" and
"ultimate lightning", small (8x8) Spionage. The game is not checked."#,
            example: Some(
                r#"`fixtures/spionage/setup.arb` (small Spionage: its piece set is not defined)."#,
            ),
            what_to_do: Some(
                r#"nothing in the log is wrong; judge the game by hand or with another tool."#,
            ),
        },
    ),
    (
        Code::SetupInvalid,
        CodeDoc {
            meaning: r#"A setup or start position breaks the ruleset: piece counts, setup zones, lakes,
volcanoes in a setup zone, a FEN that cannot arise in a game. Every problem is reported at
once; the game cannot start."#,
            example: Some(
                r#"`fixtures/jungle/position_tags_invalid.arb` (more than one Blue Lion);
`fixtures/jieqi/shuffle-invalid.arb` (a Jieqi shuffle with a third Chariot),
`fixtures/jieqi/fen-covered-off-start.arb` (a covered piece off its start points)."#,
            ),
            what_to_do: Some(r#"correct the setup rows or the position tag."#),
        },
    ),
    (
        Code::IllegalMove,
        CodeDoc {
            meaning: r#"A move the rules do not allow: wrong shape, blocked, off the board, onto an own
piece, a capture the strengths forbid, into check, a reveal beyond the pool. The replay of
that game stops there (the finding says how many plies stay unchecked)."#,
            example: Some(
                r#"`fixtures/jungle/elephant_takes_rat.arb`; one per rule in `fixtures/*/illegal-*`;
Jieqi: `fixtures/jieqi/reveal-beyond-pool.arb`, `fixtures/jieqi/capture-beyond-pool.arb`,
`fixtures/jieqi/shuffle-reveal-contradicts.arb`."#,
            ),
            what_to_do: Some(
                r#"the record is wrong at that ply (a transcription error) or the game was not
played under these rules; the help line gives the rule."#,
            ),
        },
    ),
    (
        Code::TwoSquaresRule,
        CodeDoc {
            meaning: r#"Stratego family (rulings §1.4): a piece moved between the same two squares more
often in a row than the `TwoSquares` limit (3; Gravon records 5). The move is applied and the
game goes on being checked."#,
            example: Some(r#"`fixtures/history/two-squares-fourth-move.arb`."#),
            what_to_do: Some(
                r#"a ruling for the opponent; for archives played under another limit set
`[TwoSquares "N"]` or `--two-squares N` (0 turns it off)."#,
            ),
        },
    ),
    (
        Code::MoreSquaresRule,
        CodeDoc {
            meaning: r#"Stratego family (rulings §1.5): a chasing move produced a position that already
occurred since the chase began (the return-to-previous-square exception aside). The labels
show the first occurrence and the chased pieces."#,
            example: Some(r#"`fixtures/history/chase-repeats-position.arb`."#),
            what_to_do: Some(
                r#"a ruling for the chased side; `[MoreSquares "off"]` for archives played without it."#,
            ),
        },
    ),
    (
        Code::JungleRepetition,
        CodeDoc {
            meaning: r#"Jungle (rulings §3): a move that creates a position for the third time while the
moving piece could capture the piece the opponent just moved."#,
            example: Some(r#"`fixtures/jungle/repetition_forbidden.arb`."#),
            what_to_do: Some(r#"a ruling against the mover."#),
        },
    ),
    (
        Code::PerpetualCheck,
        CodeDoc {
            meaning: r#"Xiangqi (rulings §4.3): at a third occurrence, one side gave check with every move
of the window; it loses and the game ends there (`Repetition "ends"`, the default). Labels:
the earlier occurrences and the checks. The JSON `verdict` gives the result."#,
            example: Some(r#"`fixtures/xiangqi/repetition-perpetual-check.arb`."#),
            what_to_do: Some(
                r#"the result is the loss of the checking side; for archives where play went on,
judge with `--repetition claim`."#,
            ),
        },
    ),
    (
        Code::PerpetualChase,
        CodeDoc {
            meaning: r#"Xiangqi (rulings §4.3): at a third occurrence, one side (and not the other) chased
one and the same piece with every move of the window; it loses. The message names the piece.
What counts as a chase: [xiangqi.md](xiangqi.md#repetition)."#,
            example: Some(r#"`fixtures/xiangqi/repetition-check-idle-vs-chase.arb`."#),
            what_to_do: Some(r#"as for `perpetual-check`."#),
        },
    ),
    (
        Code::MovesAfterEnd,
        CodeDoc {
            meaning: r#"The record goes on after the game ended on the board (flag, den, mate, no legal
move, a third occurrence, a move limit). One finding covers all the extra moves."#,
            example: Some(r#"`fixtures/jungle/den_entered.arb`."#),
            what_to_do: Some(
                r#"cut the record at the end, or correct the earlier move that ended it."#,
            ),
        },
    ),
    (
        Code::ResultMismatch,
        CodeDoc {
            meaning: r#"The recorded result or termination does not follow from the moves: a result the
board contradicts, a decisive result on an unfinished game without a `Termination` tag, a
termination the moves contradict (a `Termination` word or an engine GUI's adjudication
comment, `{Xboard adjudication: perpetual chasing}`), a result token that contradicts the
`Result` tag."#,
            example: Some(r#"`fixtures/spionage/hq-capture.arb`."#),
            what_to_do: Some(
                r#"correct the result, or record how the game ended off the board with
`[Termination "resignation"]` (also `agreement`, `time`, `forfeit`, `admin`)."#,
            ),
        },
    ),
    (
        Code::RecordDefect,
        CodeDoc {
            meaning: r#"A known defect of a source format that arbiter repaired, named with the repair:
Gravon's file letter `J` read as `K`, a wrong move number, an annotation written after a space,
a tag given twice (the last counts), a `Termination` word arbiter does not know (the game is
judged from its moves), a log in GB18030 rather than UTF-8 (decoded), Xiangqi moves whose
ranks could count from 0 or from 1 (read from 0). Also what a record holds that arbiter does
not read, named and skipped: a parameter tag the ruleset does not have, a Gravon element or
text it does not know, a second `<result>`. A game lists its first 100 record defects one by
one and counts the rest in one more finding, after them, at the first of them, labelled at the
last (a log that repeats a tag a million times is 101 warnings, not a million)."#,
            example: Some(
                r#"`../shared/corpus/stratego-gravon/ultimate lightning-2005.5-4822.xml` (outside the
repository)."#,
            ),
            what_to_do: Some(
                r#"nothing; the game was judged as repaired (check a skipped tag or element names what you meant)."#,
            ),
        },
    ),
    (
        Code::SetupUnusual,
        CodeDoc {
            meaning: r#"A setup that is legal but unusual, e.g. a Spionage volcano count other than 4."#,
            example: Some(r#"`fixtures/spionage/one-piece.arb`."#),
            what_to_do: None,
        },
    ),
    (
        Code::MoveLimit,
        CodeDoc {
            meaning: r#"The game ended by a no-capture move limit (`NoCaptureLimit`, moves per side); a mate
or stalemate on that ply wins instead."#,
            example: Some(
                r#"`fixtures/xiangqi/move-limit.arb`, `fixtures/jieqi/move-limit.arb` (Jieqi's 60 moves
per side)."#,
            ),
            what_to_do: None,
        },
    ),
    (
        Code::ThreefoldRepetition,
        CodeDoc {
            meaning: r#"A position occurred for the third time. Jungle: a draw becomes claimable (rulings
§3). Xiangqi: a drawn repetition that ended the game, or in `Repetition "claim"` mode any third
occurrence with its verdict (play goes on)."#,
            example: Some(
                r#"`fixtures/jungle/repetition_allowed.arb`, `fixtures/xiangqi/repetition-claim-mode.arb`."#,
            ),
            what_to_do: Some(r#"`arbiter claim FILE --ply N repetition` answers a claim there."#),
        },
    ),
    (
        Code::NoCapture50,
        CodeDoc {
            meaning: r#"Veldslag (rulings §1.6): 50 moves per side without an attack; an admin may declare a
draw if the game shows no progress."#,
            example: Some(r#"`fixtures/history/veldslag-no-capture-50.arb`."#),
            what_to_do: None,
        },
    ),
    (
        Code::NoCapture80,
        CodeDoc {
            meaning: r#"Veldslag (rulings §1.6): 80 moves per side without an attack; a draw is declared on
request."#,
            example: Some(r#"`fixtures/history/veldslag-no-capture-80.arb`."#),
            what_to_do: None,
        },
    ),
    (
        Code::NoResult,
        CodeDoc {
            meaning: r#"The log records no result (no `Result` tag, no result token); the help line says
what the moves show."#,
            example: Some(r#"`fixtures/stratego/no-result.arb`."#),
            what_to_do: Some(r#"add `[Result "..."]` when the result is known."#),
        },
    ),
];

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

/// The severity as `docs/errors.md` and `arbiter explain` write it: `error (exit 2)` for the
/// unusable-input codes.
pub fn severity_label(code: Code) -> String {
    if code.is_unusable() {
        "error (exit 2)".into()
    } else {
        code.severity().as_str().into()
    }
}

/// What `docs/errors.md` opens with.
const ERRORS_MD_INTRO: &str = r#"# Finding codes

Every finding arbiter reports has one of these codes (rulings §5). The code and its severity
never change; `--select` and `--ignore` take them, SARIF uses them as rule ids, JSON as
`code`. Severity: **error** makes the exit code 1, except `parse-error` and `unsupported-game`,
which make it 2 (the input could not be judged); **warning** and **info** never change the
exit code by themselves (`--fail-on` can make them). Each entry names a bundled fixture that
shows the finding: `arbiter check FIXTURE` prints it with its span, rule and help line.
`arbiter explain CODE` prints an entry in the terminal, `arbiter explain` lists every code.

"#;

/// One code's section of `docs/errors.md` (also what `arbiter explain CODE` prints).
pub fn code_markdown(code: Code) -> String {
    let d = code.doc();
    let mut s = format!("## {code}\n\n**{}.** {}\n", severity_label(code), d.meaning);
    if let Some(e) = d.example {
        s.push_str(&format!("\nExample: {e}\n"));
        if let Some(t) = d.what_to_do {
            s.push_str(&format!("What to do: {t}\n"));
        }
    } else if let Some(t) = d.what_to_do {
        s.push_str(&format!("\nWhat to do: {t}\n"));
    }
    s
}

/// The whole `docs/errors.md`, generated from the table.
pub fn errors_markdown() -> String {
    let mut s = ERRORS_MD_INTRO.to_string();
    for (i, c) in Code::ALL.iter().enumerate() {
        if i > 0 {
            s.push('\n');
        }
        s.push_str(&code_markdown(*c));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/errors.md is generated from the table: run with `ARBITER_BLESS=1` to rewrite it.
    #[test]
    fn errors_md_is_generated_from_the_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/errors.md");
        let want = errors_markdown();
        if std::env::var_os("ARBITER_BLESS").is_some() {
            std::fs::write(path, &want).unwrap();
        }
        let have = std::fs::read_to_string(path).unwrap();
        assert!(
            have == want,
            "docs/errors.md differs from the code table; rerun with ARBITER_BLESS=1"
        );
    }

    #[test]
    fn every_code_is_documented_and_reads_back() {
        for c in Code::ALL {
            assert_eq!(Code::parse(c.as_str()), Some(*c));
            assert!(!c.doc().meaning.is_empty() && c.description().ends_with('.'));
        }
        assert!(Code::ParseError.is_unusable() && !Code::IllegalMove.is_unusable());
    }
}
