//! Real games taken up after a ply (`convert --from-ply`, docs/log-format.md, positions): the
//! UCC 2012 Stratego games, the Gravon classic records, the layhenghok Jungle games and a
//! sample of the Xiangqi archive, each cut at a dozen plies spread over the game, stand in the
//! same position and give the same findings and outcome after the cut, except where a history
//! rule needs the plies before it (`tests/support/from_ply.rs`).

use crate::corpus_support::corpus_dir;
use crate::from_ply_support::{take_up, Taken};
use arbiter::pipeline::{check_record, parse_source, Options, Source};

/// Takes every game of `src` up at about `cuts` plies; returns (exact, partial, refused,
/// disagreements).
fn take_up_all(src: &Source, cuts: u32, tally: &mut [usize; 3], bad: &mut Vec<String>) {
    for rec in parse_source(src) {
        let judged = check_record(&src.name, &rec, &Options::default());
        let Some(replay) = judged
            .replay
            .as_ref()
            .filter(|r| r.outcome.is_some() || !r.plies.is_empty())
        else {
            continue;
        };
        let (first, last) = (replay.start_ply, replay.start_ply + judged.plies as u32);
        let step = ((last - first) / cuts).max(1) as usize;
        for n in (first..=last).step_by(step) {
            match take_up(&rec, &judged, n) {
                Ok(Taken::Agrees { exact: true }) => tally[0] += 1,
                Ok(Taken::Agrees { exact: false }) => tally[1] += 1,
                Ok(Taken::Refused) => tally[2] += 1,
                Err(e) => bad.push(format!("{} game {}: {e}", src.name, rec.index + 1)),
            }
        }
    }
}

#[test]
fn real_games_taken_up_after_a_ply_agree() {
    let mut tally = [0usize; 3];
    let mut bad = Vec::new();
    // The UCC 2012 judge's logs and the layhenghok Jungle saves, read by their importers.
    for folder in ["stratego-ucc2012", "jungle-layhenghok"] {
        if let Some(dir) = corpus_dir(folder) {
            for input in arbiter::input::expand(&[dir]) {
                if let arbiter::input::Input::File(path) = input {
                    take_up_all(&Source::read(&path), 12, &mut tally, &mut bad);
                }
            }
        }
    }
    if let Some(dir) = corpus_dir("stratego-gravon") {
        for file in ["classic-2005.4-568.xml", "classic-2015.2-2341.xml"] {
            take_up_all(&Source::read(&dir.join(file)), 24, &mut tally, &mut bad);
        }
    }
    if let Some(dir) = corpus_dir("xiangqi") {
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("readable")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
            .collect();
        files.sort();
        for path in files {
            let src = Source::read(&path);
            // Every 25th game of the archive.
            let text = String::from_utf8_lossy(src.text.as_bytes()).into_owned();
            for (i, rec) in parse_source(&src)
                .into_iter()
                .enumerate()
                .filter(|(i, _)| i % 25 == 0)
            {
                let one = &text[rec.span.start..rec.span.end];
                let _ = i;
                take_up_all(
                    &Source::from_bytes(
                        format!("{}#{}", src.name, rec.index),
                        one.as_bytes().to_vec(),
                    ),
                    6,
                    &mut tally,
                    &mut bad,
                );
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} disagreements:\n{}",
        bad.len(),
        bad.iter().take(5).cloned().collect::<Vec<_>>().join("\n\n")
    );
    let [exact, partial, refused] = tally;
    if exact + partial + refused == 0 {
        println!("SKIPPED: no corpus folder is present");
        return;
    }
    assert!(
        exact > 1000,
        "{exact} exact, {partial} partial, {refused} refused"
    );
}
