//! The full check pipeline on structured random logs (`arbitrary`): a start taken from a clean
//! fixture of each ruleset (its tags and setups), extra parameter tags, and plies that are
//! mostly legal, drawn from the engine's own move list as the game goes on (Stratego family,
//! Xiangqi, Jieqi), mixed with random coordinate moves, wrong annotations, comments, move
//! numbers and junk. So the fuzzer reaches deep positions (combat, repetition windows,
//! chases, ends of the game) and not only the parser's error paths.
#![no_main]
use arbiter::games::stratego::Stratego;
use arbiter::games::xiangqi::{MoveList, Xiangqi, GEOMETRY};
use arbiter::pipeline::{game_of, parameters_for, Options};
use arbiter::record::parse::parse_log;
use arbiter::record::MoveRecord;
use arbiter::rules::{GameId, Overrides, Rules};
use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;

const BASES: [&str; 9] = [
    include_str!("../../fixtures/stratego/clean-stratego.arb"),
    include_str!("../../fixtures/stratego/clean-barrage.arb"),
    include_str!("../../fixtures/stratego/clean-duel.arb"),
    include_str!("../../fixtures/stratego/clean-veldslag.arb"),
    include_str!("../../fixtures/spionage/turns.arb"),
    include_str!("../../fixtures/jungle/repetition_allowed.arb"),
    "[Game \"xiangqi\"]\n",
    "[Game \"jieqi\"]\n",
    include_str!("../../fixtures/jieqi/shuffle.arb"),
];

const TAGS: [&str; 12] = [
    "[TwoSquares \"3\"]",
    "[TwoSquares \"0\"]",
    "[MoreSquares \"off\"]",
    "[Repetition \"claim\"]",
    "[NoCaptureLimit \"2\"]",
    "[NoCaptureLimit \"4294967295\"]",
    "[Result \"1-0\"]",
    "[Result \"1/2-1/2\"]",
    "[Termination \"resignation\"]",
    "[Format \"WXF\"]",
    "[FirstMove \"blue\"]",
    "[Variant \"jijbent\"]",
];

#[derive(Arbitrary, Debug)]
enum Ply {
    /// The n-th legal move of the engine's list (mod its length), when the engine can say.
    Legal(u16),
    /// The same, with this identity letter as the annotation (Jieqi reveals, Stratego combat).
    LegalNoted(u16, u8, u8),
    /// A coordinate move between two squares (file 0-11, rank 0-11).
    Raw(u8, u8, u8, u8),
    /// A few bytes of text as a move.
    Junk([u8; 3]),
    /// A brace comment, a move number, a comma (a second move in the turn).
    Comment,
    Number(u8),
    Comma,
}

#[derive(Arbitrary, Debug)]
struct Log {
    base: u8,
    tags: Vec<u8>,
    plies: Vec<Ply>,
    claim: bool,
}

/// The movetext's header: everything of the base before its movetext (`1.` starts it).
fn header(base: &str) -> String {
    let mut out = String::new();
    for line in base.lines() {
        if line.trim_start().starts_with("1.") {
            break;
        }
        if line.starts_with('[') && line.contains("Result") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

const LETTERS: &[u8] = b"RNBACPKrnbacpk?:23456789XSBFM";

/// An engine that follows the log as it is written, to offer legal moves.
enum Follow {
    Stratego(Stratego, arbiter::games::stratego::State),
    Xiangqi(Xiangqi, arbiter::games::xiangqi::State),
    None,
}

impl Follow {
    /// The legal moves now, as text (without annotation).
    fn legal(&self) -> Vec<String> {
        match self {
            Follow::Stratego(e, st) => {
                let g = e.ruleset.geometry;
                e.legal_moves(st)
                    .into_iter()
                    .map(|(a, b)| format!("{}-{}", g.name(a), g.name(b)))
                    .collect()
            }
            Follow::Xiangqi(_, st) => {
                let mut list = MoveList::new();
                st.position.legal_moves(&mut list);
                list.iter()
                    .map(|m| format!("{}{}", GEOMETRY.name(m.from), GEOMETRY.name(m.to)))
                    .collect()
            }
            Follow::None => Vec::new(),
        }
    }
    /// Plays `text` as ply `number`; stops following when the engine refuses it.
    fn play(&mut self, text: &str, number: u32) {
        let mv = MoveRecord::unlocated(text, number as usize - 1);
        let ok = match self {
            Follow::Stratego(e, st) => e.play(st, &mv, number).is_ok(),
            Follow::Xiangqi(e, st) => e.play(st, &mv, number).is_ok(),
            Follow::None => false,
        };
        if !ok {
            *self = Follow::None;
        }
    }
}

fn follow(text: &str) -> Follow {
    let Some(rec) = parse_log(text).into_iter().next() else {
        return Follow::None;
    };
    let overrides = Overrides::default();
    let Ok(game) = game_of(&rec, &overrides) else {
        return Follow::None;
    };
    let Ok((params, _, _)) = parameters_for(&rec, game, &overrides) else {
        return Follow::None;
    };
    let mut findings = Vec::new();
    match game {
        GameId::Stratego | GameId::Barrage | GameId::Duel | GameId::Veldslag => {
            let Some(e) = Stratego::new(game) else {
                return Follow::None;
            };
            match e.start(&rec, &params, &mut findings) {
                Ok(st) => Follow::Stratego(e, st),
                Err(_) => Follow::None,
            }
        }
        GameId::Xiangqi | GameId::Jieqi => {
            let e = if game == GameId::Jieqi {
                Xiangqi::jieqi()
            } else {
                Xiangqi::new()
            };
            match e.start(&rec, &params, &mut findings) {
                Ok(st) => Follow::Xiangqi(e, st),
                Err(_) => Follow::None,
            }
        }
        _ => Follow::None,
    }
}

fuzz_target!(|log: Log| {
    let base = BASES[log.base as usize % BASES.len()];
    let mut text = String::new();
    for &t in log.tags.iter().take(4) {
        text.push_str(TAGS[t as usize % TAGS.len()]);
        text.push('\n');
    }
    text.push_str(&header(base));
    text.push('\n');
    let mut engine = follow(&text);
    let mut number = 0u32;
    for ply in log.plies.iter().take(400) {
        let mv = match ply {
            Ply::Legal(i) | Ply::LegalNoted(i, _, _) => {
                let legal = engine.legal();
                let raw = if legal.is_empty() {
                    "a1-a2".to_string()
                } else {
                    legal[*i as usize % legal.len()].clone()
                };
                let noted = match ply {
                    Ply::LegalNoted(_, a, b) => {
                        let l = |x: u8| LETTERS[x as usize % LETTERS.len()] as char;
                        format!("{raw}({}{})", l(*a), l(*b))
                    }
                    _ => raw.clone(),
                };
                // A Jieqi reveal needs its letter: try the bare move first, then each
                // identity, and keep what the engine takes.
                let mut chosen = noted.clone();
                if let Follow::Xiangqi(e, st) = &engine {
                    if st.jieqi.is_some() && matches!(ply, Ply::Legal(_)) {
                        for cand in std::iter::once(raw.clone())
                            .chain("RNBACP".chars().map(|c| format!("{raw}({c})")))
                        {
                            let mut probe = st.clone();
                            if e.play(
                                &mut probe,
                                &MoveRecord::unlocated(&cand, number as usize),
                                number + 1,
                            )
                            .is_ok()
                            {
                                chosen = cand;
                                break;
                            }
                        }
                    }
                }
                chosen
            }
            Ply::Raw(a, b, c, d) => format!(
                "{}{}-{}{}",
                (b'a' + a % 12) as char,
                b % 12,
                (b'a' + c % 12) as char,
                d % 12
            ),
            Ply::Junk(bytes) => String::from_utf8_lossy(bytes).replace(char::is_whitespace, "_"),
            Ply::Comment => {
                text.push_str("{ a comment } ");
                continue;
            }
            Ply::Number(n) => {
                text.push_str(&format!("{n}. "));
                continue;
            }
            Ply::Comma => {
                text.push(',');
                continue;
            }
        };
        number += 1;
        engine.play(&mv, number);
        text.push_str(&mv);
        text.push(' ');
    }
    text.push_str("*\n");
    let mut opts = Options::default();
    if log.claim {
        opts.overrides.repetition = Some(arbiter::rules::RepetitionMode::Claim);
    }
    arbiter_fuzz::judge("fuzz.arb", text.as_bytes(), &opts);
});
