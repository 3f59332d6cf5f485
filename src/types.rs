//! The vocabulary every stage shares, on the ground floor: byte spans into the user's input,
//! the two players, recorded results and occurrence numbers. Nothing here knows a game.

use serde::Serialize;

/// A half-open byte range `start..end` into the source text the user gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash, serde::Serialize)]
pub struct Span {
    /// First byte (0-based).
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end` (bytes).
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }
    /// True for a zero-length span (an insertion point, e.g. "end of file").
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// A value together with the bytes it was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it stands in the source.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// Pairs a value with its span.
    pub fn new(value: T, span: Span) -> Self {
        Spanned { value, span }
    }
}

/// The result token or tag value: what the log records, not what the moves show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordedResult {
    /// `1-0`: the first player (Red / White) won.
    FirstWins,
    /// `0-1`: the second player won.
    SecondWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished or unknown.
    Unknown,
}

impl RecordedResult {
    /// Reads `1-0`, `0-1`, `1/2-1/2` (also `½-½`) or `*`.
    pub fn parse(s: &str) -> Option<Self> {
        match s.trim() {
            "1-0" => Some(Self::FirstWins),
            "0-1" => Some(Self::SecondWins),
            "1/2-1/2" | "\u{bd}-\u{bd}" => Some(Self::Draw),
            "*" => Some(Self::Unknown),
            _ => None,
        }
    }
    /// The PGN token.
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::FirstWins => "1-0",
            Self::SecondWins => "0-1",
            Self::Draw => "1/2-1/2",
            Self::Unknown => "*",
        }
    }
}

impl Serialize for RecordedResult {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// "first", "second", ... "fifth", then "6th", "21st", "22nd", "23rd", "111th": an
/// occurrence number (1-based) in words.
pub fn ordinal(n: usize) -> String {
    match n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        4 => "fourth".into(),
        5 => "fifth".into(),
        n => nth(n),
    }
}

/// "1st", "2nd", "4th", "11th", "21st": a count (1-based) in figures, for a move of a run.
pub fn nth(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The player: `First` moves first (Red in Stratego, Jungle and Xiangqi; White in Spionage).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Side {
    /// Red (Stratego family, Jungle, Xiangqi) or White (Spionage).
    First,
    /// Blue (Stratego family, Jungle) or Black (Spionage, Xiangqi).
    Second,
}

impl Side {
    /// The other player.
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
    /// 0 for `First`, 1 for `Second` (for indexing per-side arrays).
    pub fn index(self) -> usize {
        self as usize
    }
    /// The result in which this side wins.
    pub fn wins(self) -> RecordedResult {
        match self {
            Side::First => RecordedResult::FirstWins,
            Side::Second => RecordedResult::SecondWins,
        }
    }
}

macro_rules! end_reasons {
    ($( $(#[$doc:meta])* $variant:ident = $text:literal, )*) => {
        /// Why a game ended on the board (`Outcome::reason`, the JSON `reason`, the
        /// `Termination` words for on-board endings in `docs/log-format.md`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum EndReason {
            $( $(#[$doc])* $variant, )*
        }
        impl EndReason {
            /// Every reason, in the order of the rulings.
            pub const ALL: &'static [EndReason] = &[ $(EndReason::$variant,)* ];
            /// The kebab-case word (`flag-captured`).
            pub fn as_str(self) -> &'static str {
                match self { $( EndReason::$variant => $text, )* }
            }
            /// Reads a kebab-case word.
            pub fn parse(s: &str) -> Option<EndReason> {
                match s { $( $text => Some(EndReason::$variant), )* _ => None }
            }
        }
    };
}

end_reasons! {
    /// Stratego family: a Flag was captured (rulings §1.1).
    FlagCaptured = "flag-captured",
    /// The side to move has no legal move and loses (rulings §1.1, §2, §3).
    NoLegalMove = "no-legal-move",
    /// Stratego family: neither side can move; a draw (rulings §1.1).
    NeitherCanMove = "neither-can-move",
    /// Spionage: the Headquarters was captured (rulings §2).
    HeadquartersCaptured = "headquarters-captured",
    /// Spionage: a side lost its last movable piece (rulings §2).
    AllPiecesCaptured = "all-pieces-captured",
    /// Jungle: a piece entered the opponent's den (rulings §3).
    DenEntered = "den-entered",
    /// Xiangqi/Jieqi: the side to move is checkmated (rulings §4.1).
    Checkmate = "checkmate",
    /// Xiangqi/Jieqi: the side to move has no legal move and is not in check (rulings §4.1).
    Stalemate = "stalemate",
    /// Xiangqi/Jieqi: a third occurrence where one side checked perpetually (rulings §4.3).
    PerpetualCheck = "perpetual-check",
    /// Xiangqi/Jieqi: a third occurrence where one side chased perpetually (rulings §4.3).
    PerpetualChase = "perpetual-chase",
    /// Xiangqi/Jieqi: a third occurrence drawn by repetition (rulings §4.3).
    Repetition = "repetition",
    /// A no-capture move limit was reached (rulings §4.2); a draw.
    MoveLimit = "move-limit",
}

impl Serialize for EndReason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The verdict a rule gives a position: the result and why (a Xiangqi repetition's,
/// rulings §4.3, whether it ended the game or play went on).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Verdict {
    /// The result the rule gives.
    pub result: RecordedResult,
    /// Why.
    pub reason: EndReason,
}

/// A ply named as the record writes it, for verdicts and claim answers: `ply 271 (136. b4xb7)`;
/// in a record whose turns hold several plies (Spionage), `ply 9 (turn 5, 3. White, move 1:
/// e3-e4)`, as Spionage's findings name a move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveRef {
    /// The ply (1-based, in the order played).
    pub ply: u32,
    /// The turn of the movetext it belongs to (0-based; equals `ply - 1` outside Spionage).
    pub turn: usize,
    /// The movetext number of that turn (`136` in `136. b4xb7`).
    pub number: u64,
    /// True when the turn is written after `N...` (the second player's turn of number N).
    pub second: bool,
    /// The move within its turn (1-based), when the record's turns hold several plies.
    pub move_in_turn: Option<usize>,
    /// Who played it, when the replay reached it.
    pub side: Option<Side>,
    /// The move as written, its annotation in parentheses included (`b4xb7(2:F)`).
    pub text: String,
}

impl MoveRef {
    /// `136. b4xb7`, `136... b7xb8`, or `turn 5, 3. White, move 1: e3-e4` (Spionage);
    /// `sides` names the players. The text is the log's: escape it before it reaches a
    /// terminal or a page.
    pub fn written(&self, sides: [&str; 2]) -> String {
        let dots = if self.second { "..." } else { "." };
        match self.move_in_turn {
            Some(k) => {
                let who = self
                    .side
                    .map_or(String::new(), |s| format!(" {}", sides[s.index()]));
                format!(
                    "turn {}, {}{dots}{who}, move {k}: {}",
                    self.turn + 1,
                    self.number,
                    self.text
                )
            }
            None => format!("{}{dots} {}", self.number, self.text),
        }
    }

    /// `ply 271 (136. b4xb7)`: [`MoveRef::written`] after the ply number.
    pub fn named(&self, sides: [&str; 2]) -> String {
        format!("ply {} ({})", self.ply, self.written(sides))
    }
}

/// The words for an ending, shared by every output (the human report's verdict, `show`'s
/// caption, `claim` answers): (`Red wins: Blue's Flag is captured`, `draw: neither side can
/// move`), with the players named as in `sides`; the reason's kebab-case code is not
/// included.
pub fn ending_words(sides: [&str; 2], v: Verdict) -> String {
    let winner = match v.result {
        RecordedResult::FirstWins => Some(Side::First),
        RecordedResult::SecondWins => Some(Side::Second),
        _ => None,
    };
    let Some(w) = winner else {
        return match v.reason {
            EndReason::NeitherCanMove => "draw: neither side can move".into(),
            EndReason::Repetition => {
                "draw by repetition: a position stands for the third time".into()
            }
            EndReason::MoveLimit => "draw: the no-capture move limit is reached".into(),
            r => format!("{}: {}", v.result.as_str(), r.as_str().replace('-', " ")),
        };
    };
    let (win, lose) = (sides[w.index()], sides[w.other().index()]);
    let why = match v.reason {
        EndReason::FlagCaptured => format!("{lose}'s Flag is captured"),
        EndReason::NoLegalMove => format!("{lose} has no legal move"),
        EndReason::HeadquartersCaptured => format!("{lose}'s Headquarters is captured"),
        EndReason::AllPiecesCaptured => format!("{lose} has no movable piece left"),
        EndReason::DenEntered => format!("{win} enters {lose}'s den"),
        EndReason::Checkmate => format!("{lose} is checkmated"),
        EndReason::Stalemate => format!("{lose} is stalemated"),
        EndReason::PerpetualCheck => format!("{lose} checks perpetually"),
        EndReason::PerpetualChase => format!("{lose} chases perpetually"),
        r => r.as_str().replace('-', " "),
    };
    format!("{win} wins: {why}")
}

/// One row of the table of rulesets ([`GAMES`]): how a ruleset is named and its players.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameInfo {
    /// The ruleset.
    pub id: GameId,
    /// Its canonical name (`stratego`, `spionage-snel`): the `Game` tag and `--game` value.
    pub name: &'static str,
    /// Other names it is known by, lower case (`classic`, Gravon's `duell`, xqbase's
    /// `chinese chess`).
    pub aliases: &'static [&'static str],
    /// The players' names, first player first.
    pub sides: [&'static str; 2],
    /// Where its rules are written.
    pub rules: &'static str,
}

macro_rules! games {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal, [$($alias:literal),*], [$a:literal, $b:literal], $rules:literal; )*) => {
        /// The rulesets arbiter knows by name (`docs/log-format.md`: the `Game` tag). The
        /// engine of each is chosen in one place, `crate::games::engine`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum GameId {
            $( $(#[$doc])* $variant, )*
        }
        /// Every ruleset, in [`GameId`] order.
        pub const GAMES: &[GameInfo] = &[
            $( GameInfo {
                id: GameId::$variant,
                name: $name,
                aliases: &[$($alias),*],
                sides: [$a, $b],
                rules: $rules,
            }, )*
        ];
    };
}

games! {
    /// Classic ISF Stratego, 40 pieces a side (rulings §1.1).
    Stratego = "stratego", ["classic"], ["Red", "Blue"], "rulings §1.1";
    /// ISF Barrage, 8 pieces a side (rulings §1.1).
    Barrage = "barrage", [], ["Red", "Blue"], "rulings §1.1";
    /// Gravon's Duel ("duell"), 10 pieces a side (rulings §1.1).
    Duel = "duel", ["duell"], ["Red", "Blue"], "rulings §1.1";
    /// jijbent Veldslag, 8x8 (rulings §1.2).
    Veldslag = "veldslag", [], ["Red", "Blue"], "rulings §1.2";
    /// Spionage, two moves a turn (rulings §2).
    Spionage = "spionage", [], ["White", "Black"], "rulings §2";
    /// Spionage with one move a turn (rulings §2).
    SpionageSnel = "spionage-snel", [], ["White", "Black"], "rulings §2";
    /// Jungle / Dou Shou Qi (rulings §3).
    Jungle = "jungle", ["dou shou qi"], ["Red", "Blue"], "rulings §3";
    /// Xiangqi (rulings §4.1).
    Xiangqi = "xiangqi", ["chinese chess"], ["Red", "Black"], "rulings §4.1, §4.3";
    /// Jieqi, Xiangqi with covered pieces (rulings §4.2).
    Jieqi = "jieqi", [], ["Red", "Black"], "rulings §4.2, §4.3";
}

impl GameId {
    /// The ruleset's row of [`GAMES`].
    pub fn info(self) -> &'static GameInfo {
        &GAMES[self as usize]
    }
    /// Reads a `Game` tag value or `--game` argument: a canonical name or an alias, any case.
    pub fn parse(s: &str) -> Option<GameId> {
        let s = s.trim().to_ascii_lowercase();
        GAMES
            .iter()
            .find(|g| g.name == s || g.aliases.contains(&s.as_str()))
            .map(|g| g.id)
    }
    /// The canonical name (`stratego`, `spionage-snel`, ...).
    pub fn as_str(&self) -> &'static str {
        self.info().name
    }
    /// Every ruleset name, for messages.
    pub const NAMES: &'static str =
        "stratego, barrage, duel, veldslag, spionage, spionage-snel, jungle, xiangqi, jieqi";
    /// The players' names in this ruleset, first player first.
    pub fn side_names(&self) -> [&'static str; 2] {
        self.info().sides
    }
}

impl Serialize for GameId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_table_is_in_id_order_and_names_read_back() {
        for (i, g) in GAMES.iter().enumerate() {
            assert_eq!(g.id as usize, i);
            assert_eq!(GameId::parse(g.name), Some(g.id));
            for a in g.aliases {
                assert_eq!(GameId::parse(a), Some(g.id));
            }
        }
        let names: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
        assert_eq!(GameId::NAMES, names.join(", "));
        assert_eq!(GameId::parse(" Chinese Chess "), Some(GameId::Xiangqi));
        assert_eq!(GameId::parse("chess"), None);
    }

    #[test]
    fn ordinals() {
        assert_eq!(ordinal(3), "third");
        assert_eq!(ordinal(11), "11th");
        assert_eq!(ordinal(21), "21st");
        assert_eq!(nth(4), "4th");
        assert_eq!(nth(12), "12th");
        assert_eq!(nth(112), "112th");
    }
}

/// How a run ends (rulings §5), and the process's exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0: no finding at the `--fail-on` level.
    Clean,
    /// 1: findings at the `--fail-on` level (or a claim that does not hold).
    Findings,
    /// 2: some input could not be read, parsed or judged, the usage was wrong, or the report
    /// could not be written.
    Unusable,
}

impl ExitStatus {
    /// 0, 1 or 2.
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Clean => 0,
            ExitStatus::Findings => 1,
            ExitStatus::Unusable => 2,
        }
    }
}

impl From<ExitStatus> for std::process::ExitCode {
    fn from(s: ExitStatus) -> Self {
        std::process::ExitCode::from(s.code())
    }
}
