//! Scaling benchmark (issue 19): time and peak memory of `arbiter check` at N and 10N for each
//! class of input whose cost once grew faster than its size, in every output format.
//!
//! Classes: `brace` (N games of `1. a {`, a brace comment that never closes), `lap` (a
//! more-squares chase running N laps round a lake), `shuttle` (one Barrage game of N plies
//! with a two-squares finding on almost every ply), `games` (N small clean games), `gravon`
//! (one Gravon XML file of N games), `random` (N KB of random bytes on standard input),
//! `dhtmlxq-tags` (a DhtmlXQ block of N elements never closed, then N blocks never closed),
//! `dhtmlxq-tree` (a DhtmlXQ record whose main line shuffles the Horses for N plies and N
//! variations in place of its last ply, judged with `--repetition claim`: a tree replay that
//! copied the state at each branch would cost N times the line).
//!
//! Each measurement runs in a fresh child process (this example re-run with `one`), which
//! judges the input with the library's check driver into a sink and reports its wall time
//! and its peak resident memory (VmHWM, Linux).
//!
//! Run: `cargo run --release --example scaling [-- CLASS... [--n N]]`.

use arbiter::run::{self, CheckOptions, Format};
use std::io::Write;
use std::time::Instant;

const CLASSES: [&str; 8] = [
    "brace",
    "lap",
    "shuttle",
    "games",
    "gravon",
    "random",
    "dhtmlxq-tags",
    "dhtmlxq-tree",
];
const FORMATS: [&str; 8] = [
    "human", "json", "jsonl", "sarif", "github", "junit", "rdjson", "gitlab",
];

/// The ring of 12 squares round Stratego's left lake, each orthogonally next to the next.
const RING: [&str; 12] = [
    "b4", "c4", "d4", "e4", "e5", "e6", "e7", "d7", "c7", "b7", "b6", "b5",
];

fn barrage_head(blue: &str, red: &str) -> String {
    format!(
        "[Game \"barrage\"]\n[Result \"*\"]\n\nsetup blue\n 10 {blue}\n  9 ..........\n  8 ..........\n  7 ..........\nsetup red\n  4 ..........\n  3 ..........\n  2 ..........\n  1 {red}\n\n"
    )
}

/// A chase round the lake: Blue's General runs the ring, Red's Marshal follows one square
/// behind, threatening it on every move; from the second lap on every chasing move repeats
/// a position of the chase (rulings §1.5).
fn lap(n: usize) -> String {
    let s = barrage_head("FBS2.23X..", "FBS2239...")
        .replace("  7 ..........", "  7 ..9.......")
        .replace("  4 ..........", "  4 ....X.....");
    let mut moves = vec![
        "e4-e5", "f10-f9", "e5-e6", "f9-f8", "e6-e7", "f8-f9", "e7-d7",
    ];
    let mut text = String::new();
    // Blue's General at c7 (ring 8), Red's Marshal at d7 (ring 7).
    let (mut g, mut x) = (8usize, 7usize);
    let mut owned = Vec::new();
    for _ in 0..n * 12 {
        let ng = (g + 1) % 12;
        owned.push(format!("{}-{}", RING[g], RING[ng]));
        owned.push(format!("{}-{}", RING[x], RING[g]));
        x = g;
        g = ng;
    }
    moves.extend(owned.iter().map(String::as_str));
    for (i, m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        text.push_str(m);
        text.push(if i % 10 == 9 { '\n' } else { ' ' });
    }
    s + &text + "*\n"
}

/// One Barrage game of `n` plies: both Marshals shuttle, so nearly every ply from the fourth
/// breaks the two-squares rule (rulings §1.4).
fn shuttle(n: usize) -> String {
    let mut s = barrage_head("FBS2239X..", "FBS2239X..");
    for i in 0..n {
        if i % 2 == 0 {
            s.push_str(&format!("{}. ", i / 2 + 1));
        }
        let (a, b) = if i % 2 == 0 {
            ("h1", "h2")
        } else {
            ("h10", "h9")
        };
        let forward = (i / 2) % 2 == 0;
        s.push_str(&if forward {
            format!("{a}-{b}")
        } else {
            format!("{b}-{a}")
        });
        s.push(if i % 10 == 9 { '\n' } else { ' ' });
    }
    s + "*\n"
}

/// `n` small clean Jungle games.
fn games(n: usize) -> String {
    "[Game \"jungle\"]\n[Result \"*\"]\n\n1. g3-g4 a7-a6 2. g4-g5 a6-a5 *\n\n".repeat(n)
}

/// One Gravon XML file of `n` games (the corpus's classic game shape, shortened).
fn gravon(n: usize) -> String {
    let game = "<game type=\"classic\" id=\"1\"><player id=\"0\" name=\"a\"/><player id=\"1\" name=\"b\"/><field content=\"FBBBBBSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS__AA__AA____AA__AA__RRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRR\"/><move id=\"1\" source=\"A4\" target=\"A5\"/><result type=\"0\" winner=\"-1\"/></game>";
    format!(
        "<?xml version=\"1.0\"?>\n<stratego>{}</stratego>\n",
        game.repeat(n)
    )
}

/// A DhtmlXQ record: the Horses shuttle h0g2 h9g7 g2h0 g7h9 for `n` plies (a multiple of 4),
/// and `n` variations put i9i8 in place of the last ply.
fn dhtmlxq_tree(n: usize) -> String {
    let n = n / 4 * 4;
    let mut s = String::from("[DhtmlXQ][DhtmlXQ_movelist]");
    s.push_str(&"7967706267796270".repeat(n / 4));
    s.push_str("[/DhtmlXQ_movelist]\n");
    for k in 1..=n {
        s.push_str(&format!(
            "[DhtmlXQ_move_0_{n}_{k}]8081[/DhtmlXQ_move_0_{n}_{k}]\n"
        ));
    }
    s + "[/DhtmlXQ]\n"
}

/// `kb` KB of deterministic random bytes.
fn random(kb: usize) -> Vec<u8> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    (0..kb * 1024)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

fn input(class: &str, n: usize) -> Vec<u8> {
    match class {
        "brace" => "[Game \"stratego\"]\n1. a {\n".repeat(n).into_bytes(),
        "lap" => lap(n).into_bytes(),
        "shuttle" => shuttle(n).into_bytes(),
        "games" => games(n).into_bytes(),
        "gravon" => gravon(n).into_bytes(),
        "dhtmlxq-tags" => format!(
            "[DhtmlXQ]{}{}",
            "[DhtmlXQ_title]x".repeat(n),
            "[DhtmlXQ]".repeat(n)
        )
        .into_bytes(),
        "dhtmlxq-tree" => dhtmlxq_tree(n).into_bytes(),
        _ => random(n),
    }
}

/// The peak resident memory of this process in KB (VmHWM), 0 where /proc is absent.
fn peak_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// In the child: judges one input in one format and prints `seconds peak_kb bytes`.
fn one(class: &str, n: usize, format: &str) {
    let bytes = input(class, n);
    let ext = match class {
        "gravon" => "xml",
        "dhtmlxq-tags" | "dhtmlxq-tree" => "txt",
        _ => "arb",
    };
    let path = std::env::temp_dir().join(format!("arbiter-scaling-{}.{ext}", std::process::id()));
    std::fs::write(&path, &bytes).expect("temp file");
    let opts = CheckOptions {
        format: <Format as clap::ValueEnum>::from_str(format, true).unwrap_or(Format::Human),
        overrides: arbiter::rules::Overrides {
            repetition: (class == "dhtmlxq-tree").then_some(arbiter::rules::RepetitionMode::Claim),
            ..Default::default()
        },
        ..CheckOptions::default()
    };
    let start = Instant::now();
    run::check(
        std::slice::from_ref(&path),
        &opts,
        &mut std::io::sink(),
        &mut std::io::sink(),
    );
    let secs = start.elapsed().as_secs_f64();
    if std::env::var_os("SCALING_KEEP").is_none() {
        let _ = std::fs::remove_file(&path);
    } else {
        eprintln!("kept {}", path.display());
    }
    println!("{secs:.3} {} {}", peak_kb(), bytes.len());
}

fn measure(class: &str, n: usize, format: &str) -> (f64, u64, usize) {
    let exe = std::env::current_exe().expect("own path");
    let out = std::process::Command::new(exe)
        .args(["one", class, &n.to_string(), format])
        .output()
        .expect("child runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut f = text.split_whitespace();
    let secs = f.next().and_then(|s| s.parse().ok()).unwrap_or(f64::NAN);
    let kb = f.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let bytes = f.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    (secs, kb, bytes)
}

fn base_n(class: &str) -> usize {
    match class {
        "brace" => 3_000,
        "lap" => 300,
        "shuttle" => 20_000,
        "games" => 2_000,
        "gravon" => 300,
        "dhtmlxq-tags" => 2_000,
        "dhtmlxq-tree" => 2_000,
        _ => 100,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("one") {
        let n = args[2].parse().expect("N");
        one(&args[1], n, &args[3]);
        return;
    }
    let scale: usize = args
        .iter()
        .position(|a| a == "--n")
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(1);
    let chosen: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| CLASSES.contains(a))
        .collect();
    let classes = if chosen.is_empty() {
        CLASSES.to_vec()
    } else {
        chosen
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "| class | format | N | bytes | s | peak MB | 10N bytes | s | peak MB | time x | memory x |");
    let _ = writeln!(
        out,
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for class in classes {
        let n = base_n(class) * scale;
        for format in FORMATS {
            let (t1, m1, b1) = measure(class, n, format);
            let (t2, m2, b2) = measure(class, n * 10, format);
            let _ = writeln!(
                out,
                "| {class} | {format} | {n} | {b1} | {t1:.3} | {:.1} | {b2} | {t2:.3} | {:.1} | {:.1} | {:.2} |",
                m1 as f64 / 1024.0,
                m2 as f64 / 1024.0,
                t2 / t1.max(1e-3),
                m2 as f64 / (m1.max(1) as f64),
            );
        }
    }
}
