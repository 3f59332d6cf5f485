//! The rulebook: every rule a finding can cite, with its source, in one table.
//!
//! A finding names its rule by [`Rule`]; the citation text (`rulings §1.4 ...`,
//! `docs/log-format.md (moves)`) is looked up here, so a rule's source is written once.
//! `../shared/rulings.md` is the binding specification; the docs named here describe the
//! log formats.

use serde::Serialize;

macro_rules! rules {
    ($( $variant:ident = $citation:literal, $summary:literal; )*) => {
        /// A rule a finding can cite ([`Rule::citation`] gives where it is written).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule {
            $( #[doc = $summary] $variant, )*
        }
        impl Rule {
            /// Every rule, in the order of the rulings.
            pub const ALL: &'static [Rule] = &[ $(Rule::$variant,)* ];
            /// Where the rule is written, as findings cite it.
            pub fn citation(self) -> &'static str {
                match self { $( Rule::$variant => $citation, )* }
            }
            /// What the rule is about, in a few words.
            pub fn summary(self) -> &'static str {
                match self { $( Rule::$variant => $summary, )* }
            }
        }
    };
}

rules! {
    LogFormat = "docs/log-format.md", "The native game log format.";
    LogNative = "docs/log-format.md (the native game log)", "The native game log: tags, setups, movetext.";
    LogUtf8 = "docs/log-format.md: logs are UTF-8 text", "Logs are UTF-8 text.";
    ListedDefects = "docs/errors.md (record-defect): at most 100 a game are listed", "How many record defects a game lists one by one.";
    LogTags = "docs/log-format.md (tags)", "Tag pairs and their values.";
    LogParameterTags = "docs/log-format.md (parameter tags)", "The tags that set a ruleset's parameters.";
    LogMoves = "docs/log-format.md (moves)", "How moves are written.";
    LogPositions = "docs/log-format.md (positions)", "A log taken up from a position: FromPly, and the position start of the Stratego family and Spionage.";
    LogJungle = "docs/log-format.md (Jungle)", "The Jungle log: positions and options.";
    LogJungleVariant = "docs/log-format.md (Jungle: Variant)", "Jungle's Variant tag.";
    LogJieqiMoves = "docs/log-format.md (moves: Jieqi reveals and captured identities)", "Jieqi reveals and captured identities in the moves.";
    LogJieqiShuffle = "docs/log-format.md (setups: the Jieqi shuffle); rulings §4.2", "The Jieqi shuffle in setup sections.";
    LogXiangqiMoves = "docs/log-format.md (moves): xiangqi moves are ICCS coordinates, WXF or Chinese notation", "How Xiangqi moves are written.";
    LogGameTag = "log-format.md: the Game tag names the ruleset", "The Game tag names the ruleset.";
    LogNoGameTag = "log-format.md: a log without a Game tag takes the CLI's --game", "A log without a Game tag takes --game.";
    LogResultTag = "log-format.md: Result tag", "The Result tag.";
    LogResultToken = "log-format.md: the result token repeats the Result tag", "The result token repeats the Result tag.";
    LogTerminations = "log-format.md: recorded terminations", "The Termination words a log may record.";
    LogXiangqiPosition = "log-format.md (setups and positions); rulings §4.1", "Xiangqi setups and positions.";
    XqbaseFen = "log-format.md (positions: xqbase FEN); rulings §4.1", "Xiangqi positions as xqbase FEN.";
    JieqiFen = "log-format.md (positions: Pikafish-Jieqi FEN); rulings §4.2", "Jieqi positions as Pikafish-Jieqi FEN.";
    XiangqiNotation = "docs/xiangqi.md (notation): WXF notation (AXF/WXF 1997), Chinese notation (xqbase, rules 7.5)", "WXF and Chinese move notation.";
    XiangqiSan = "docs/xiangqi.md (engine and site PGN): SAN and coordinates as WinBoard, pychess and MoonRiver write them", "Xiangqi SAN and coordinate moves of engine and site PGN.";
    GravonFormat = "Gravon XML format (corpus/stratego-gravon/SOURCE.md)", "The Gravon XML record format.";
    LayhenghokFormat = "the layhenghok Jungle program's saved games (corpus/jungle-layhenghok/SOURCE.md)", "The saved-game format of the layhenghok Jungle program.";
    Ucc2012Format = "the UCC 2012 Stratego judge's logs (corpus/stratego-ucc2012/SOURCE.md)", "The game logs of the UCC Programming Competition 2012 judge.";
    XqfFormat = "XQF format of XQStudio (corpus/xiangqi-xqf/SOURCE.md; XQF.TXT by XQStudio's author)", "The XQF binary record format of XQStudio.";
    DhtmlXqFormat = "DhtmlXQ format of the dpxq.com viewer (docs/xiangqi.md#dhtmlxq; corpus/xiangqi-dhtmlxq/SOURCE.md)", "The DhtmlXQ bracket-tag record format of the dpxq.com web viewer.";
    Unsupported = "rulings §5: unsupported-game", "Games arbiter does not judge.";
    GravonVariants = "rulings §1.1: Gravon's classicfree and ultimate lightning are not supported", "Gravon variants arbiter does not judge.";
    Stratego = "rulings §1.1 (ISF game rules; seed 003)", "Classic Stratego: setups, movement, combat, end.";
    Barrage = "rulings §1.1 (ISF Barrage)", "Barrage: setups, movement, combat, end.";
    Duel = "rulings §1.1 (Gravon Duel)", "Duel: setups, movement, combat, end.";
    Veldslag = "rulings §1.2 (jijbent Veldslag, seed 000)", "Veldslag: setups, movement, combat, end.";
    ResultFollows = "rulings §1.3: a recorded result must follow from the moves or from a recorded off-board termination", "A recorded result must follow from the moves.";
    MovesAfterEnd = "rulings §1.3: any move after the game ended is moves-after-end", "No move after the game ended.";
    TwoSquares = "rulings §1.4 two-squares rule (ISF; seed 000: only 3 times back and forth)", "The two-squares rule.";
    MoreSquares = "rulings §1.5 more-squares rule (ISF via Gravon; seed 000, second rule)", "The more-squares (chase) rule.";
    NoCapture = "rulings §1.6 (jijbent Veldslag, seed 000): no-capture thresholds", "Veldslag's no-capture thresholds.";
    Spionage = "rulings §2 (Spionage, seed 002)", "Spionage: setups, turns, movement, combat, end.";
    SmallSpionage = "rulings §2: small (8x8) Spionage variants are not supported until a source gives their piece set", "Small Spionage variants are not judged.";
    Jungle = "rulings §3 (seed 001, Jungle as played on jijbent)", "Jungle: movement, capture, end.";
    JungleRepetition = "rulings §3 (seed 001): no move may create a position for the third time while the moving piece could capture the piece the opponent just moved", "Jungle's forbidden repetition.";
    JungleThreefold = "rulings §3 (seed 001): a third occurrence of a position with the same side to move and the same legal moves makes a draw claimable", "Jungle's claimable threefold repetition.";
    Xiangqi = "rulings §4.1 (seed 004)", "Xiangqi: movement, check, end.";
    XiangqiMovement = "rulings §4.1 (seed 004): standard movement", "Xiangqi: standard movement.";
    XiangqiPalace = "rulings §4.1 (seed 004): General and Advisors stay in the palace", "Xiangqi: General and Advisors stay in the palace.";
    XiangqiRiver = "rulings §4.1 (seed 004): Elephants never cross the river", "Xiangqi: Elephants never cross the river.";
    XiangqiEye = "rulings §4.1 (seed 004): an Elephant is blocked by a piece on its eye", "Xiangqi: an Elephant is blocked by a piece on its eye.";
    XiangqiLeg = "rulings §4.1 (seed 004): a Horse is blocked by a piece on its leg", "Xiangqi: a Horse is blocked by a piece on its leg.";
    XiangqiCannonPath = "rulings §4.1 (seed 004): a Cannon moves over empty points only, and jumps only to capture", "Xiangqi: a Cannon moves over empty points only, and jumps only to capture.";
    XiangqiChariotPath = "rulings §4.1 (seed 004): a Chariot moves over empty points only", "Xiangqi: a Chariot moves over empty points only.";
    XiangqiScreen = "rulings §4.1 (seed 004): a Cannon captures over exactly one screen", "Xiangqi: a Cannon captures over exactly one screen.";
    XiangqiSoldierSideways = "rulings §4.1 (seed 004): a Soldier moves sideways only after crossing the river", "Xiangqi: a Soldier moves sideways only after crossing the river.";
    XiangqiSoldierBackward = "rulings §4.1 (seed 004): a Soldier never moves backwards", "Xiangqi: a Soldier never moves backwards.";
    XiangqiFacing = "rulings §4.1 (seed 004): the two Generals may never face each other on an open file", "Xiangqi: the two Generals may never face each other on an open file.";
    XiangqiCheck = "rulings §4.1 (seed 004): no move may leave the own General attacked", "Xiangqi: no move may leave the own General attacked.";
    XiangqiPoints = "rulings §4.1 (seed 004): ICCS coordinates", "Xiangqi: ICCS coordinates.";
    XiangqiEmptyPoint = "rulings §4.1 (seed 004): a move starts on one of the mover's pieces", "Xiangqi: a move starts on one of the mover's pieces.";
    XiangqiTurns = "rulings §4.1 (seed 004): the sides move in turn", "Xiangqi: the sides move in turn.";
    XiangqiOwnPiece = "rulings §4.1 (seed 004): a piece moves to an empty point or captures an enemy piece", "Xiangqi: a piece moves to an empty point or captures an enemy piece.";
    XiangqiCaptureMark = "rulings §4.1 (seed 004): a capture mark must name a capture", "Xiangqi: a capture mark must name a capture.";
    FacingGenerals = "rulings §4.1: the two Generals may never face each other on an open file", "The Generals never face each other.";
    Jieqi = "rulings §4.2 (seed 004)", "Jieqi: covered pieces, reveals, pools.";
    NoCaptureLimit = "rulings §4.2: a NoCaptureLimit of N moves per side (2N plies) without a capture ends the game as a draw", "A no-capture move limit.";
    Repetition = "rulings §4.3 (seed 004; AXF perpetual check and chase rules)", "Xiangqi repetition: perpetual check and chase.";
}

impl Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.citation())
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.citation())
    }
}
