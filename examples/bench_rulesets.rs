//! Benchmark: every ruleset (issue 30). For each ruleset an archive of at least `--plies`
//! plies (default 1,000,000) is built in memory, then (a) parse only, (b) the full check on
//! one core and (c) on all cores are timed, each the median of `--runs` runs:
//!
//! - Stratego: the Gravon games of `../shared/corpus/stratego-gravon` (XML), replicated;
//! - Barrage, Duel: random legal games from the real Gravon setups of
//!   `../shared/corpus/stratego-gravon-setups` (`barrage.csv`, `duell.csv`);
//! - Veldslag, Spionage, Jungle, Jieqi: random legal games from random (Veldslag, Spionage,
//!   Jieqi) or standard (Jungle) starts, played as the property tests play them.
//!
//! The history rules are on (every ruleset's defaults: two-squares, more-squares, repetition,
//! no-capture limits); random play breaks some of them, and those findings are part of the
//! work measured. Games stop at their end on the board or after `MAX_PLIES`.
//!
//! Run: `cargo run --release --example bench_rulesets -- [--runs N] [--plies N] [--only a,b]
//! [--corpus DIR] [--dump DIR] [--phases a,b]` (`--dump`: also write each archive under
//! DIR/RULESET/, for timing the command line on it; `--phases`: only these of `parse`,
//! `parse-parallel`, `check`, `check-parallel`, e.g. one phase under callgrind). Prints one JSON object per ruleset and phase on stdout; a ruleset whose
//! corpus folder is absent prints `SKIPPED: ...` on stderr.

use arbiter::games::jungle::{Jungle, Variant};
use arbiter::games::spionage::{Spionage, KINDS as SPIONAGE_KINDS};
use arbiter::games::stratego::{Stratego, KINDS};
use arbiter::games::xiangqi::random::{jieqi_shuffle, random_game, shuffle_setups};
use arbiter::games::xiangqi::Position;
use arbiter::geometry::zobrist;
use arbiter::input::{self, Chunk};
use arbiter::pipeline::{self, Options, Source};
use arbiter::record::parse::parse_log;
use arbiter::record::MoveRecord;
use arbiter::rules::{GameId, Overrides, Parameters, Rules, Side};
use arbiter::types::Span;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

#[path = "support/cpu.rs"]
mod cpu;

/// The longest random game, in plies (real Barrage games on Gravon run 100 to 300 plies).
const MAX_PLIES: usize = 400;

/// A deterministic random stream (splitmix64 through [`zobrist`]).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(1);
        (zobrist(self.0) % n.max(1) as u64) as usize
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// The native move number before ply `i` (from 0) of a one-move-a-turn game.
fn number(out: &mut String, i: usize) {
    if i.is_multiple_of(2) {
        out.push_str(&format!("{}. ", i / 2 + 1));
    }
}

/// A setup section of a Stratego-family game: `cells` holds the zone's rows from its lowest
/// rank up, `width` letters each ('.' empty).
fn setup_section(word: &str, ranks: &[u8], width: usize, cells: &[char]) -> String {
    let mut out = format!("setup {word}\n");
    for (row, rank) in ranks.iter().enumerate().rev() {
        let line: String = cells[row * width..(row + 1) * width].iter().collect();
        out.push_str(&format!("{:>3} {line}\n", rank + 1));
    }
    out
}

/// A Gravon `field_content` (100 letters, index = (rank - 1) * 10 + file) as the two setup
/// sections of a native log (Blue first), or `None` when a letter is unknown.
fn gravon_setups(field: &str) -> Option<String> {
    let b = field.as_bytes();
    if b.len() != 100 {
        return None;
    }
    let native = |c: u8| -> Option<char> {
        let order = b"BCDEFGHIJKLM";
        let i = order.iter().position(|&o| o == c || o + 12 == c)?;
        Some(b"BS23456789XF"[i] as char)
    };
    let zone = |rows: std::ops::Range<usize>| -> Option<Vec<char>> {
        rows.flat_map(|r| (0..10).map(move |f| r * 10 + f))
            .map(|i| match b[i] {
                b'A' | b'_' => Some('.'),
                c => native(c),
            })
            .collect()
    };
    Some(
        setup_section("blue", &[6, 7, 8, 9], 10, &zone(6..10)?)
            + &setup_section("red", &[0, 1, 2, 3], 10, &zone(0..4)?),
    )
}

/// A random game of a Stratego-family ruleset from its tags and setups (`head`), as a
/// native log: moves drawn from [`Stratego::legal_moves`], attacks annotated every other
/// time. `None` when the setups are refused.
fn stratego_game(game: GameId, head: &str, rng: &mut Rng) -> Option<String> {
    let engine = Stratego::new(game)?;
    let record = &parse_log(&format!("{head}\n*\n"))[0];
    let (params, _, _) = pipeline::parameters_for(record, game, &Overrides::default()).ok()?;
    let mut st = engine.start(record, &params, &mut Vec::new()).ok()?;
    let g = engine.geometry();
    let mut text = format!("{head}\n");
    let mut ply = 0;
    while ply < MAX_PLIES && engine.outcome(&st, ply as u32).is_none() {
        let legal = engine.legal_moves(&st);
        if legal.is_empty() {
            break;
        }
        let (from, to) = legal[rng.below(legal.len())];
        let token = match (st.board[from as usize], st.board[to as usize]) {
            (Some(a), Some(d)) if ply % 2 == 0 => format!(
                "{}x{}({}:{})",
                g.name(from),
                g.name(to),
                a.kind.letter(),
                d.kind.letter()
            ),
            (_, Some(_)) => format!("{}x{}", g.name(from), g.name(to)),
            _ => format!("{}-{}", g.name(from), g.name(to)),
        };
        ply += 1;
        engine
            .play(&mut st, &MoveRecord::unlocated(&token, ply - 1), ply as u32)
            .ok()?;
        number(&mut text, ply - 1);
        text.push_str(&token);
        text.push(if ply % 10 == 0 { '\n' } else { ' ' });
    }
    text.push_str("*\n\n");
    Some(text)
}

/// Barrage or Duel games from the Gravon setups in `csv` (`field_content` is column 4).
fn gravon_setup_games(game: GameId, csv: &Path, plies: usize) -> Option<String> {
    let text = std::fs::read_to_string(csv).ok()?;
    let fields: Vec<&str> = text
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').nth(3))
        .filter(|f| f.len() == 100)
        .collect();
    let mut rng = Rng(game as u64);
    let mut out = String::new();
    for field in fields.iter().cycle() {
        if out.len() / 7 >= plies {
            break;
        }
        let head = format!("[Game \"{}\"]\n\n{}", game.as_str(), gravon_setups(field)?);
        out.push_str(&stratego_game(game, &head, &mut rng).unwrap_or_default());
    }
    Some(out)
}

/// Veldslag games from random setups (the whole army in random places of each zone).
fn veldslag_games(plies: usize) -> String {
    let engine = Stratego::new(GameId::Veldslag).expect("Veldslag");
    let r = &engine.ruleset;
    let width = r.geometry.width as usize;
    let mut rng = Rng(7);
    let mut out = String::new();
    while out.len() / 7 < plies {
        let mut head = String::from("[Game \"veldslag\"]\n\n");
        for side in [Side::Second, Side::First] {
            let zone: Vec<u8> = r.zones[side.index()].clone().collect();
            let mut army: Vec<char> = KINDS
                .iter()
                .flat_map(|k| std::iter::repeat_n(k.letter(), r.counts[k.index()] as usize))
                .collect();
            army.resize(zone.len() * width, '.');
            rng.shuffle(&mut army);
            let word = if side == Side::First { "red" } else { "blue" };
            head.push_str(&setup_section(word, &zone, width, &army));
        }
        out.push_str(&stratego_game(GameId::Veldslag, &head, &mut rng).unwrap_or_default());
    }
    out
}

/// Spionage games: shuffled armies, four volcanoes on ranks 4-7, random legal turns.
fn spionage_games(plies: usize) -> String {
    let engine = Spionage::new(GameId::Spionage).expect("Spionage");
    let name = |sq: u8| format!("{}{}", (b'a' + sq % 10) as char, sq / 10 + 1);
    let mut rng = Rng(11);
    let mut out = String::new();
    while out.len() / 7 < plies {
        let mut middle: Vec<u8> = (30..70).collect();
        rng.shuffle(&mut middle);
        let volcanoes: Vec<String> = middle[..4].iter().map(|&s| name(s)).collect();
        let mut head = format!(
            "[Game \"spionage\"]\n[Volcanoes \"{}\"]\n",
            volcanoes.join(" ")
        );
        for (word, ranks) in [("white", [3, 2, 1]), ("black", [10, 9, 8])] {
            let mut army: Vec<char> = SPIONAGE_KINDS
                .iter()
                .flat_map(|k| std::iter::repeat_n(k.letter(), k.count() as usize))
                .collect();
            rng.shuffle(&mut army);
            head.push_str(&format!("setup {word}\n"));
            for (i, r) in ranks.iter().enumerate() {
                let row: String = army[i * 10..i * 10 + 10].iter().collect();
                head.push_str(&format!("{r:>3} {row}\n"));
            }
        }
        let record = &parse_log(&format!("{head}*\n"))[0];
        let Ok(mut st) = engine.start(record, &Parameters::default(), &mut Vec::new()) else {
            continue;
        };
        out.push_str(&head);
        out.push('\n');
        let mut ply = 0u32;
        let mut turn = 0;
        while engine.outcome(&st, ply).is_none() && (ply as usize) < MAX_PLIES {
            let mut moves = Vec::new();
            for _ in 0..engine.moves_per_turn() {
                let legal = engine.legal_moves(&st);
                if legal.is_empty() {
                    break;
                }
                let (from, to) = legal[rng.below(legal.len())];
                let sep = if st.board[to as usize].is_some() {
                    'x'
                } else {
                    '-'
                };
                ply += 1;
                engine.apply(&mut st, from, to, ply);
                moves.push(format!("{}{sep}{}", name(from), name(to)));
                if engine.outcome(&st, ply).is_some() {
                    break;
                }
            }
            if moves.is_empty() {
                break;
            }
            engine.end_turn(&mut st);
            number(&mut out, turn);
            out.push_str(&moves.join(","));
            turn += 1;
            out.push(if turn % 8 == 0 { '\n' } else { ' ' });
        }
        out.push_str("*\n\n");
    }
    out
}

/// Jungle games from the standard start: moves drawn from [`Jungle::allowed_moves`].
fn jungle_games(plies: usize) -> String {
    let engine = Jungle::new();
    let geo = &arbiter::games::jungle::GEOMETRY;
    let mut rng = Rng(13);
    let mut out = String::new();
    while out.len() / 6 < plies {
        let mut st = engine.standard_start(Variant::default());
        out.push_str("[Game \"jungle\"]\n\n");
        let mut ply = 0;
        while ply < MAX_PLIES && engine.outcome(&st, ply as u32).is_none() {
            let allowed = engine.allowed_moves(&st);
            if allowed.is_empty() {
                break;
            }
            let (from, to) = allowed[rng.below(allowed.len())];
            ply += 1;
            engine.make_move(&mut st, (from, to), ply as u32, Span::default());
            number(&mut out, ply - 1);
            out.push_str(&format!("{}-{} ", geo.name(from), geo.name(to)));
        }
        out.push_str("*\n\n");
    }
    out
}

/// Jieqi games: a random shuffle written as setup sections, then random legal moves.
fn jieqi_games(plies: usize) -> String {
    let mut out = String::new();
    let mut seed = 17;
    while out.len() / 5 < plies {
        seed += 1;
        let shuffle: Position = jieqi_shuffle(seed);
        out.push_str("[Game \"jieqi\"]\n");
        out.push_str(&shuffle_setups(&shuffle));
        out.push('\n');
        // Real Jieqi games are shorter than the 60-move limit (120 plies without a capture).
        for (i, m) in random_game(&shuffle, seed, 150).iter().enumerate() {
            number(&mut out, i);
            out.push_str(&m.iccs());
            out.push(' ');
        }
        out.push_str("*\n\n");
    }
    out
}

/// The chunks replicated until they hold at least `plies` plies, counting the plies the
/// check replays (a replay stops at an end on the board or an illegal move); chunks whose
/// game cannot be judged at all (an unsupported variant) are left out.
fn replicate(chunks: Vec<Chunk>, plies: usize) -> (Vec<Chunk>, usize, usize) {
    let opts = Options::default();
    let judged: Vec<(Chunk, usize)> = chunks
        .into_iter()
        .filter_map(|c| {
            let games = pipeline::check_chunk(&c, &opts);
            let n: usize = games.iter().map(|g| g.plies).sum();
            (n > 0).then_some((c, n))
        })
        .collect();
    let (mut out, mut n, mut bytes) = (Vec::new(), 0, 0);
    for (c, p) in judged.iter().cycle() {
        if n >= plies {
            break;
        }
        n += p;
        bytes += c.text.len();
        out.push(c.clone());
    }
    (out, n, bytes)
}

/// Writes the chunks as files under `dir`: one Gravon XML file a game, or one native log.
fn write_archive(dir: &Path, chunks: &[Chunk]) {
    let _ = std::fs::create_dir_all(dir);
    if chunks
        .first()
        .is_some_and(|c| c.kind == input::ChunkKind::Gravon)
    {
        for (i, c) in chunks.iter().enumerate() {
            let _ = std::fs::write(dir.join(format!("{i:06}.xml")), &c.text);
        }
    } else {
        let text: String = chunks.iter().map(|c| c.text.as_str()).collect();
        let _ = std::fs::write(dir.join("games.arb"), text);
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// The archive of one ruleset, or why it cannot be built.
fn archive(name: &str, corpus: &Path, plies: usize) -> Result<Vec<Chunk>, String> {
    let native = |text: String| input::chunks_of_text(name, text.into_bytes());
    let setups = corpus.join("stratego-gravon-setups");
    match name {
        "stratego" => {
            let dir = corpus.join("stratego-gravon");
            let files: Vec<PathBuf> = std::fs::read_dir(&dir)
                .map_err(|e| format!("{}: {e}", dir.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "xml"))
                .collect();
            let mut files = files;
            files.sort();
            Ok(files
                .iter()
                .flat_map(|p| Source::read(p).chunks())
                .collect())
        }
        "barrage" | "duel" => {
            let (game, csv) = if name == "barrage" {
                (GameId::Barrage, "barrage.csv")
            } else {
                (GameId::Duel, "duell.csv")
            };
            gravon_setup_games(game, &setups.join(csv), plies)
                .map(native)
                .ok_or_else(|| format!("{} absent", setups.join(csv).display()))
        }
        "veldslag" => Ok(native(veldslag_games(plies))),
        "spionage" => Ok(native(spionage_games(plies))),
        "jungle" => Ok(native(jungle_games(plies))),
        "jieqi" => Ok(native(jieqi_games(plies))),
        _ => Err(format!("unknown ruleset {name}")),
    }
}

/// Times `f` `runs` times: the medians of the wall and of this thread's CPU seconds.
fn time(runs: usize, f: &dyn Fn() -> usize) -> (f64, f64) {
    let (wall, cpu): (Vec<f64>, Vec<f64>) = (0..runs)
        .map(|_| {
            cpu::timed(|| {
                std::hint::black_box(f());
            })
        })
        .unzip();
    (median(wall), median(cpu))
}

/// Times the four phases (parse and check, one core and all cores) on one ruleset's archive
/// and prints them.
fn bench(name: &str, chunks: &[Chunk], (plies, bytes): (usize, usize), runs: usize, phases: &str) {
    let opts = Options::default();
    let wanted = |phase: &str| phases.split(',').any(|p| p == phase);
    // `cpu_seconds` (one-core phases): this thread's time on a CPU, which the load of other
    // work on a shared machine changes much less than the wall time.
    let report = |phase: &str, (secs, cpu): (f64, f64), threads: usize| {
        let cpu_rate = if threads == 1 && cpu > 0.0 {
            format!("{:.0}", plies as f64 / cpu)
        } else {
            "null".to_string()
        };
        println!(
            "{{\"ruleset\":\"{name}\",\"phase\":\"{phase}\",\"threads\":{threads},\"seconds\":{secs:.4},\"cpu_seconds\":{cpu:.4},\"games\":{},\"plies\":{plies},\"bytes\":{bytes},\"plies_per_s\":{:.0},\"plies_per_cpu_s\":{cpu_rate},\"mb_per_s\":{:.1}}}",
            chunks.len(),
            plies as f64 / secs,
            bytes as f64 / 1e6 / secs
        );
    };
    let parse = |c: &Chunk| pipeline::parse_chunk(c).len();
    let check = |c: &Chunk| pipeline::check_chunk(c, &opts).len();
    let all = rayon::current_num_threads();
    type Work<'w> = &'w (dyn Fn(&Chunk) -> usize + Sync);
    let phases: [(&str, usize, Work); 4] = [
        ("parse", 1, &parse),
        ("parse-parallel", all, &parse),
        ("check", 1, &check),
        ("check-parallel", all, &check),
    ];
    for (phase, threads, work) in phases {
        if wanted(phase) {
            let secs = time(runs, &|| match threads {
                1 => chunks.iter().map(work).sum(),
                _ => chunks.par_iter().map(work).sum(),
            });
            report(phase, secs, threads);
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut runs, mut plies) = (5, 1_000_000);
    let mut only: Option<String> = None;
    let mut corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let mut dump: Option<PathBuf> = None;
    let mut phases = String::from("parse,parse-parallel,check,check-parallel");
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => runs = args.next().and_then(|n| n.parse().ok()).unwrap_or(runs),
            "--plies" => plies = args.next().and_then(|n| n.parse().ok()).unwrap_or(plies),
            "--only" => only = args.next(),
            "--corpus" => corpus = args.next().map(PathBuf::from).unwrap_or(corpus),
            "--dump" => dump = args.next().map(PathBuf::from),
            "--phases" => phases = args.next().unwrap_or(phases),
            _ => {}
        }
    }
    let names = [
        "stratego", "barrage", "duel", "veldslag", "spionage", "jungle", "jieqi",
    ];
    for name in names {
        if only
            .as_deref()
            .is_some_and(|o| !o.split(',').any(|x| x == name))
        {
            continue;
        }
        match archive(name, &corpus, plies) {
            Ok(chunks) => {
                let (chunks, n, bytes) = replicate(chunks, plies);
                if n == 0 {
                    eprintln!("SKIPPED: {name}: no plies in its archive");
                    continue;
                }
                if let Some(dir) = &dump {
                    write_archive(&dir.join(name), &chunks);
                }
                bench(name, &chunks, (n, bytes), runs, &phases);
            }
            Err(why) => eprintln!("SKIPPED: {name}: {why}"),
        }
    }
}
