//! When standard output is gone, arbiter says so and exits 2 (issues 19 and 21): a pipe
//! closed by its reader (`arbiter check F | head -1`) stops the work, a standard output
//! closed by the shell (`>&-`) is refused before any work, and a discarded one
//! (`>/dev/null`) is not mistaken for either.

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use crate::bin::{self, Run};

const FIXTURE: &str = "fixtures/history/two-squares-fourth-move.arb";

/// Runs `arbiter ARGS >&-` through the shell.
fn closed_stdout(args: &[&str]) -> Run {
    bin::arbiter(args).in_shell(">&-").run()
}

#[test]
fn a_closed_standard_output_exits_2_for_every_command() {
    for args in [
        &["check", FIXTURE][..],
        &["check", "--format", "json", FIXTURE],
        &["convert", FIXTURE],
        &["claim", FIXTURE, "--ply", "7", "two-squares"],
        &["show", FIXTURE, "--ply", "7"],
    ] {
        let run = closed_stdout(args);
        let err = run.stderr;
        assert_eq!(run.code, 2, "{args:?}: {err}");
        assert!(err.contains("standard output is closed"), "{args:?}: {err}");
    }
}

#[test]
fn a_discarded_standard_output_still_runs() {
    let run = bin::arbiter(["check", FIXTURE]).stdout(Stdio::null()).run();
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("1 error"));
}

/// 20,000 games, each with an error to report: far more report than a pipe holds.
#[test]
fn a_closed_pipe_stops_the_work() {
    let dir = std::env::temp_dir().join(format!("arbiter-output-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("many.arb");
    let game = "[Game \"jungle\"]\n[Result \"*\"]\n1. g3-g4 a7-c7 *\n";
    std::fs::write(&path, game.repeat(20_000)).expect("write");
    let mut child = bin::arbiter(["check", "--color", "never", "-j", "1"])
        .arg(&path)
        .spawn();
    // `head -1`: read one line, then close the pipe.
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("a line");
    assert!(
        first.starts_with("game 1 of "),
        "the verdict first: {first}"
    );
    let run = Run::of(child);
    let err = run.stderr;
    assert_eq!(run.code, 2, "{err}");
    assert!(err.contains("cannot write the report"), "{err}");
    // The summary counts the games judged before the pipe closed: far from all of them.
    let games: usize = err
        .split(" games,")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("a summary line");
    assert!(
        games < 5_000,
        "{games} games judged after the pipe closed: {err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
