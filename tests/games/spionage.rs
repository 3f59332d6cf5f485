//! Spionage fixtures (`fixtures/spionage/*.arb`): every game states its hand-worked verdict in
//! `; expect:` and `; outcome:` comment lines after its tags (`tests/support/fixtures.rs`),
//! which this test compares with what arbiter finds; the findings of each file are also kept
//! as insta snapshots. The unmasking fixture is replayed through the engine to check
//! `State::unmasked`, which makes no finding.

use crate::fixtures::{assert_fixture_verdicts, fixtures_in};
use arbiter::games::spionage::{Spionage, State};
use arbiter::pipeline::{check_record, parse_source, Options, Source};
use arbiter::record::parse::parse_log;
use arbiter::report::human;
use arbiter::rules::{GameId, Parameters, Rules, Side};
use std::path::{Path, PathBuf};

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/spionage")
}

#[test]
fn fixtures_match_their_hand_worked_verdicts() {
    let files = fixtures_in("spionage");
    assert!(
        files.len() >= 10,
        "expected the Spionage fixtures, found {files:?}"
    );
    let mut games = 0;
    for j in assert_fixture_verdicts(&files, |_| Options::default()) {
        let (src, mut snapshot) = (&j.src, String::new());
        for (rec, report) in j.records.iter().zip(&j.reports) {
            games += 1;
            let outcome = report
                .outcome
                .as_ref()
                .map(|o| format!("{} {} ply {}", o.result.as_str(), o.reason, o.ply));
            snapshot.push_str(&format!(
                "game {} ({}): {} plies, outcome {}\n",
                rec.index + 1,
                rec.tag_value("Event").unwrap_or("-"),
                report.plies,
                outcome.as_deref().unwrap_or("none")
            ));
            for f in &report.findings {
                snapshot.push_str(&format!(
                    "  {} {}: {} [{}] at `{}`\n",
                    f.code,
                    f.ply.map_or("-".to_string(), |p| format!("ply {p}")),
                    f.message,
                    f.label,
                    &src.text[f.span.start..f.span.end]
                ));
            }
        }
        let name = src.name.rsplit('/').next().expect("a file name");
        let stem = name.trim_end_matches(".arb").replace('-', "_");
        insta::assert_snapshot!(format!("spionage_{stem}"), snapshot);
    }
    assert!(games >= 100, "only {games} fixture games were checked");
}

#[test]
fn human_report_of_the_turn_fixture() {
    let src = Source::read(&fixture_dir().join("turns.arb"));
    let style = human::Style {
        color: false,
        width: 100,
    };
    let mut out = String::new();
    for rec in parse_source(&src) {
        let report = check_record("fixtures/spionage/turns.arb", &rec, &Options::default());
        for f in &report.findings {
            out.push_str(&human::render(
                f,
                &arbiter::report::SourceWindow::whole("fixtures/spionage/turns.arb", &src.text),
                rec.index,
                style,
            ));
        }
    }
    insta::assert_snapshot!("spionage_turns_human", out);
}

/// The state after the first `plies` plies of game `game` of a fixture, replayed through the
/// engine (every ply must be legal).
fn state_after(file: &str, game: usize, plies: usize) -> State {
    let text = std::fs::read_to_string(fixture_dir().join(file)).expect("fixture");
    let rec = &parse_log(&text)[game];
    let engine = Spionage::new(GameId::Spionage).unwrap();
    let mut warnings = Vec::new();
    let mut st = engine
        .start(rec, &Parameters::default(), &mut warnings)
        .expect("valid setup");
    for (i, mv) in rec.moves.iter().take(plies).enumerate() {
        engine
            .play(&mut st, mv, i as u32 + 1)
            .unwrap_or_else(|f| panic!("ply {}: {}", i + 1, f.message));
    }
    st
}

/// What the pieces with these ids are (`gone` when off the board).
fn kinds(st: &State, ids: &[u16]) -> Vec<&'static str> {
    ids.iter()
        .map(|&id| {
            st.board
                .iter()
                .flatten()
                .find(|p| p.id == id)
                .map_or("gone", |p| p.kind.name())
        })
        .collect()
}

fn seen(st: &State, viewer: Side) -> Vec<(u16, u32)> {
    st.unmasked_to(viewer).collect()
}

#[test]
fn spy_unmasks_on_arrival_and_when_the_enemy_arrives() {
    // unmask.arb game 1, worked out in its comments.
    let st = state_after("unmask.arb", 0, 10);
    assert_eq!(seen(&st, Side::First), vec![]);
    let st = state_after("unmask.arb", 0, 11);
    assert_eq!(
        seen(&st, Side::First),
        vec![(57, 11)],
        "enemy arrives diagonally"
    );
    let st = state_after("unmask.arb", 0, 13);
    assert_eq!(
        seen(&st, Side::First),
        vec![(54, 13), (55, 13), (56, 13), (57, 11)],
        "the Spy arrives: e8 and g8 diagonally, f8 ahead"
    );
    assert_eq!(
        seen(&st, Side::Second),
        vec![(5, 13)],
        "Black's Spy sees White's"
    );
    let st = state_after("unmask.arb", 0, 20);
    assert_eq!(
        seen(&st, Side::First),
        vec![(53, 19), (54, 13), (55, 13), (56, 13), (57, 11)],
        "enemy arrives orthogonally"
    );
    assert_eq!(seen(&st, Side::Second), vec![(5, 13)]);
    // The pieces are what the setup says they are.
    assert_eq!(
        kinds(&st, &[53, 54, 55, 56, 57]),
        vec!["Colonel", "General", "Spy", "Corporal", "Lieutenant"]
    );
}

#[test]
fn a_position_carries_its_unmaskings_and_the_spy_adds_to_them() {
    // position.arb game 5, worked out in its comments: Black's ids in reading order are j10
    // 30, j9 31, f6 32, d5 33; j9 is unmasked by the Unmasked tag (ply 0, the start).
    let st = state_after("position.arb", 4, 0);
    assert_eq!(seen(&st, Side::First), vec![(31, 0)]);
    assert_eq!(seen(&st, Side::Second), vec![]);
    let st = state_after("position.arb", 4, 1);
    assert_eq!(
        seen(&st, Side::First),
        vec![(31, 0), (32, 1), (33, 1)],
        "the Spy arrives on e5: f6 diagonally, d5 beside it"
    );
    let st = state_after("position.arb", 4, 3);
    assert_eq!(
        seen(&st, Side::First),
        vec![(31, 0), (32, 1), (33, 1)],
        "moving away keeps them unmasked"
    );
    assert_eq!(
        kinds(&st, &[31, 32, 33]),
        vec!["Lieutenant", "Colonel", "Corporal"]
    );
}

#[test]
fn black_spy_unmasks_and_a_capturing_spy_unmasks_on_arrival() {
    // unmask.arb game 2.
    let st = state_after("unmask.arb", 1, 12);
    assert_eq!(seen(&st, Side::Second), vec![(4, 11)]);
    assert_eq!(seen(&st, Side::First), vec![]);
    let st = state_after("unmask.arb", 1, 13);
    assert_eq!(seen(&st, Side::Second), vec![(4, 11), (5, 13)]);
    assert_eq!(seen(&st, Side::First), vec![(55, 13)]);
    let st = state_after("unmask.arb", 1, 18);
    assert_eq!(seen(&st, Side::First), vec![(55, 13), (56, 17)]);
    assert_eq!(seen(&st, Side::Second), vec![(4, 11), (5, 13)]);
    assert_eq!(
        st.lost[Side::Second.index()].len(),
        1,
        "the Black Spy was taken"
    );
}

#[test]
fn small_spionage_is_refused_without_a_guess() {
    let src = Source::from_bytes(
        "t.arb",
        b"[Game \"klein snelspionage\"]\n1. a2-a3 *\n".to_vec(),
    );
    let r = &arbiter::check_source(&src, &Options::default())[0];
    assert_eq!(r.findings.len(), 1);
    assert_eq!(r.findings[0].code, arbiter::Code::UnsupportedGame);
    assert!(r.findings[0].message.contains("piece set is not defined"));
    assert_eq!(r.plies, 0);
}
