//! Properties of the Spionage engine (rulings §2), on random games of both variants:
//! - a random legal game, written as a native log, replays with no finding, the same number of
//!   plies and the same ending; `arbiter convert` of it replays the same way;
//! - a corrupted game (a diagonal move, a moved piece moving again, a dropped second move) is
//!   caught as `illegal-move` at the corrupted ply, with no error before it;
//! - no mangled Spionage log (random bytes changed, cut or inserted) makes arbiter panic, and
//!   every finding's span lies inside the text.
//!
//! The games are made with the engine's own move list (`Spionage::legal_moves`) and turn
//! mechanics (`apply`, `end_turn`), the same functions `play` checks with; the log text is then
//! judged through the whole pipeline (grammar, turns, replay, result check).

use arbiter::games::spionage::{Kind, Spionage, KINDS};
use arbiter::pipeline::{check_source, parse_source, Options, Source};
use arbiter::record::parse::parse_log;
use arbiter::rules::{GameId, Outcome, Parameters, Rules};
use arbiter::Code;
use proptest::prelude::*;

/// splitmix64: a small deterministic generator driven by proptest's seed.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

fn name(sq: u8) -> String {
    format!("{}{}", (b'a' + sq % 10) as char, sq / 10 + 1)
}

/// One ply of a generated game.
#[derive(Debug, Clone, Copy)]
struct Ply {
    from: u8,
    to: u8,
    attack: Option<(Kind, Kind)>,
}

#[derive(Debug, Clone)]
pub(crate) struct Game {
    header: String,
    turns: Vec<Vec<Ply>>,
    outcome: Option<Outcome>,
}

/// Tags and setups of a random game: shuffled armies, four volcanoes on ranks 4–7.
fn header(game: GameId, rng: &mut Rng) -> String {
    let mut out = format!("[Game \"{}\"]\n", game.as_str());
    let mut middle: Vec<u8> = (30..70).collect();
    rng.shuffle(&mut middle);
    let volcanoes: Vec<String> = middle[..4].iter().map(|&s| name(s)).collect();
    out.push_str(&format!("[Volcanoes \"{}\"]\n", volcanoes.join(" ")));
    for (word, ranks) in [("white", [3, 2, 1]), ("black", [10, 9, 8])] {
        let mut army: Vec<char> = KINDS
            .iter()
            .flat_map(|k| std::iter::repeat_n(k.letter(), k.count() as usize))
            .collect();
        rng.shuffle(&mut army);
        out.push_str(&format!("setup {word}\n"));
        for (i, r) in ranks.iter().enumerate() {
            let row: String = army[i * 10..i * 10 + 10].iter().collect();
            out.push_str(&format!("{r:>3} {row}\n"));
        }
    }
    out
}

/// Plays up to `max_turns` random legal turns.
pub(crate) fn random_game(game: GameId, seed: u64, max_turns: usize) -> Game {
    let mut rng = Rng(seed);
    let header = header(game, &mut rng);
    let record = &parse_log(&format!("{header}*\n"))[0];
    let engine = Spionage::new(game).unwrap();
    let mut st = engine
        .start(record, &Parameters::default(), &mut Vec::new())
        .expect("generated setups are valid");
    let mut turns = Vec::new();
    let mut ply = 0u32;
    let mut outcome = engine.outcome(&st, 0);
    while outcome.is_none() && turns.len() < max_turns {
        let mut turn = Vec::new();
        for _ in 0..engine.moves_per_turn() {
            let moves = engine.legal_moves(&st);
            if moves.is_empty() {
                break;
            }
            let (from, to) = moves[rng.below(moves.len())];
            let attack = match (st.board[from as usize], st.board[to as usize]) {
                (Some(a), Some(d)) => Some((a.kind, d.kind)),
                _ => None,
            };
            ply += 1;
            engine.apply(&mut st, from, to, ply);
            assert_eq!(st.key, Spionage::full_key(&st), "key after ply {ply}");
            turn.push(Ply { from, to, attack });
            outcome = engine.outcome(&st, ply);
            if outcome.is_some() {
                break;
            }
        }
        if outcome.is_none() {
            engine.end_turn(&mut st);
            assert_eq!(
                st.key,
                Spionage::full_key(&st),
                "key after the turn of ply {ply}"
            );
            outcome = engine.outcome(&st, ply);
        }
        turns.push(turn);
    }
    Game {
        header,
        turns,
        outcome,
    }
}

/// The native log of a game; attacks are written with `x`, every other one annotated.
pub(crate) fn write(g: &Game) -> String {
    let mut out = g.header.clone();
    out.push('\n');
    for (t, turn) in g.turns.iter().enumerate() {
        if t % 2 == 0 {
            out.push_str(&format!("{}. ", t / 2 + 1));
        }
        let plies: Vec<String> = turn
            .iter()
            .enumerate()
            .map(|(i, p)| match p.attack {
                Some((a, d)) if (t + i) % 2 == 0 => format!(
                    "{}x{}({}:{})",
                    name(p.from),
                    name(p.to),
                    a.letter(),
                    d.letter()
                ),
                Some(_) => format!("{}x{}", name(p.from), name(p.to)),
                None => format!("{}-{}", name(p.from), name(p.to)),
            })
            .collect();
        out.push_str(&plies.join(","));
        out.push(if t % 8 == 7 { '\n' } else { ' ' });
    }
    out.push_str(g.outcome.as_ref().map_or("*", |o| o.result.as_str()));
    out.push('\n');
    out
}

fn plies(g: &Game) -> usize {
    g.turns.iter().map(Vec::len).sum()
}

fn variant() -> impl Strategy<Value = GameId> {
    prop_oneof![Just(GameId::Spionage), Just(GameId::SpionageSnel)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_games_replay_clean(game in variant(), seed in any::<u64>(), turns in 1usize..300) {
        let g = random_game(game, seed, turns);
        let text = write(&g);
        let src = Source::from_bytes("random.arb", text.clone().into_bytes());
        let reports = check_source(&src, &Options::default());
        prop_assert_eq!(reports.len(), 1);
        let r = &reports[0];
        prop_assert!(r.findings.is_empty(), "{:?}\n{}", r.findings.iter().map(|f| (f.code, f.ply, &f.message)).collect::<Vec<_>>(), text);
        prop_assert_eq!(r.plies, plies(&g));
        prop_assert_eq!(&r.outcome, &g.outcome, "{}", text);

        // convert writes the same game again.
        let rec = &parse_source(&src)[0];
        let again = arbiter::convert::convert_one(rec, &Default::default(), None).expect("spionage");
        let r2 = &check_source(&Source::from_bytes("again.arb", again.clone().into_bytes()), &Options::default())[0];
        prop_assert!(r2.findings.is_empty(), "{:?}\n{}", r2.findings.iter().map(|f| &f.message).collect::<Vec<_>>(), again);
        prop_assert_eq!(r2.plies, r.plies);
        prop_assert_eq!(&r2.outcome, &r.outcome);
    }

    #[test]
    fn a_corrupted_move_is_caught(game in variant(), seed in any::<u64>(), turns in 4usize..60, pick in any::<u64>(), how in 0u8..3) {
        let mut g = random_game(game, seed, turns);
        prop_assume!(g.turns.len() >= 3);
        let mut rng = Rng(pick);
        // Only turns before the last complete turn, so that the record goes on after them.
        let t = rng.below(g.turns.len() - 1);
        let before: usize = g.turns[..t].iter().map(Vec::len).sum();
        let two = g.turns[t].len() == 2;
        let ply = match how {
            // A diagonal step: never one orthogonal square.
            0 => {
                let i = rng.below(g.turns[t].len());
                let p = &mut g.turns[t][i];
                let (f, r) = (p.from % 10, p.from / 10);
                let df: i8 = if f == 9 { -1 } else { 1 };
                let dr: i8 = if r == 9 { -1 } else { 1 };
                p.to = ((r as i8 + dr) * 10 + f as i8 + df) as u8;
                p.attack = None;
                before + i + 1
            }
            // The second move of a two-move turn moved by the piece of the first.
            1 if two => {
                let first = g.turns[t][0];
                let to = if first.to / 10 < 9 { first.to + 10 } else { first.to - 10 };
                g.turns[t][1] = Ply { from: first.to, to, attack: None };
                before + 2
            }
            // A dropped second move: the turn had two moves, so one was possible.
            _ if two => {
                g.turns[t].truncate(1);
                before + 1
            }
            _ => return Ok(()),
        };
        let text = write(&g);
        let r = &check_source(&Source::from_bytes("bad.arb", text.clone().into_bytes()), &Options::default())[0];
        let first_error = r.findings.iter().find(|f| f.severity() == arbiter::Severity::Error);
        prop_assert!(first_error.is_some(), "not caught:\n{}", text);
        let f = first_error.unwrap();
        prop_assert_eq!(f.code, Code::IllegalMove, "{}\n{}", f.message, text);
        prop_assert_eq!(f.ply, Some(ply as u32), "{}\n{}", f.message, text);
        prop_assert_eq!(r.plies, ply - 1);
    }

    #[test]
    fn mangled_logs_never_panic(game in variant(), seed in any::<u64>(), edits in proptest::collection::vec((any::<u16>(), 0u8..3, any::<u8>()), 1..12)) {
        let g = random_game(game, seed, 30);
        let mut bytes = write(&g).into_bytes();
        let alphabet = b"abcdefghijk0123456789-x,:()HBSM. \n[]\"*;{}";
        for (at, what, b) in edits {
            let i = at as usize % (bytes.len() + 1);
            let c = alphabet[b as usize % alphabet.len()];
            match what {
                0 if i < bytes.len() => bytes[i] = c,
                1 if i < bytes.len() => { bytes.remove(i); }
                _ => bytes.insert(i, c),
            }
        }
        let src = Source::from_bytes("mangled.arb", bytes);
        for r in check_source(&src, &Options::default()) {
            for f in &r.findings {
                prop_assert!(f.span.start <= f.span.end && f.span.end <= src.text.len(), "{:?}", f);
            }
        }
    }
}
