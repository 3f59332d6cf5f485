//! `arbiter show` and `check --show` (docs/show.md) on the hand-built games of
//! `fixtures/show/` (each fixture's header works out who knows what after its last ply): the
//! terminal board of every ruleset from the arbiter's and each player's view, one SVG per
//! ruleset, the exit codes, and the boards under `check --show` findings.

use crate::bin;
use arbiter::pipeline::{parse_source, Source};
use arbiter::report::board::BoardView;
use arbiter::rules::{GameId, Overrides, Side};
use arbiter::show;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> PathBuf {
    root().join("fixtures/show").join(name)
}

/// The arbiter's view after `ply` of the first game of `fixtures/show/<name>`.
fn board(name: &str, ply: u32) -> BoardView {
    let src = Source::read(&fixture(name));
    let records = parse_source(&src);
    show::board_at(&records[0], &Overrides::default(), ply)
        .unwrap_or_else(|e| panic!("{name} ply {ply}: {}", e.message))
}

/// The three views (arbiter, first player, second player), drawn without colour.
fn three_views(v: &BoardView) -> String {
    [
        v.render_text(false),
        v.seen_by(Side::First).render_text(false),
        v.seen_by(Side::Second).render_text(false),
    ]
    .join("\n")
}

/// Fixture, last ply, ruleset.
const GAMES: &[(&str, u32, GameId)] = &[
    ("stratego.arb", 8, GameId::Stratego),
    ("barrage.arb", 6, GameId::Barrage),
    ("duel.arb", 6, GameId::Duel),
    ("veldslag.arb", 8, GameId::Veldslag),
    ("spionage.arb", 20, GameId::Spionage),
    ("jungle.arb", 7, GameId::Jungle),
    ("xiangqi.arb", 4, GameId::Xiangqi),
    ("jieqi.arb", 4, GameId::Jieqi),
];

#[test]
fn terminal_boards_of_every_ruleset() {
    for &(name, ply, game) in GAMES {
        let v = board(name, ply);
        assert_eq!(v.game, game.as_str(), "{name}");
        assert_eq!(v.ply, ply, "{name}");
        insta::assert_snapshot!(format!("board_{}", game.as_str()), three_views(&v));
    }
}

#[test]
fn svg_of_every_ruleset_is_well_formed() {
    for &(name, ply, game) in GAMES {
        let svg = board(name, ply).seen_by(Side::First).render_svg();
        assert_well_formed(&svg, name);
        assert!(!svg.contains("href"), "{name}: no external reference");
        insta::assert_snapshot!(format!("svg_{}", game.as_str()), svg);
    }
}

/// Xiangqi and Jieqi in the traditional characters (`--pieces chinese`, issue 31): every
/// piece of the board has its character, the river its two names; Jieqi from Black's view,
/// where Red's covered pieces and the piece Black captured covered stay `?` and unnamed.
#[test]
fn svg_with_chinese_faces() {
    use arbiter::report::svg::Faces;
    let xq = board("xiangqi.arb", 4).render_svg_with(Faces::Chinese);
    assert_well_formed(&xq, "xiangqi.arb");
    for c in [
        '帥', '仕', '相', '傌', '俥', '炮', '兵', '將', '士', '象', '馬', '車', '砲', '卒',
    ] {
        assert!(xq.contains(&format!(">{c}</text>")), "{c} drawn");
    }
    assert!(xq.contains(">楚 河</text>") && xq.contains(">漢 界</text>"));
    insta::assert_snapshot!("svg_xiangqi_chinese", xq);
    let jq = board("jieqi.arb", 4)
        .seen_by(Side::Second)
        .render_svg_with(Faces::Chinese);
    assert_well_formed(&jq, "jieqi.arb");
    // Red 12 covered (15 less h2 and a0 revealed, b0 captured), Black 13 (less b7, i9).
    assert_eq!(jq.matches(">?</text>").count(), 25);
    for c in ['帥', '炮', '兵', '將', '馬', '車'] {
        assert_eq!(
            jq.matches(&format!(">{c}</text>")).count(),
            1,
            "{c} revealed"
        );
    }
    insta::assert_snapshot!("svg_jieqi_chinese_black", jq);
}

/// Reads the whole document with an XML parser: any syntax error fails.
fn assert_well_formed(svg: &str, name: &str) {
    let mut reader = quick_xml::Reader::from_str(svg);
    let mut depth = 0i32;
    let mut elements = 0;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(quick_xml::events::Event::Start(_)) => {
                depth += 1;
                elements += 1;
            }
            Ok(quick_xml::events::Event::Empty(_)) => elements += 1,
            Ok(quick_xml::events::Event::End(_)) => depth -= 1,
            Ok(_) => {}
            Err(e) => panic!("{name}: not well-formed XML: {e}"),
        }
    }
    assert_eq!(depth, 0, "{name}: unbalanced elements");
    assert!(elements > 100, "{name}: only {elements} elements");
}

/// The hand-worked knowledge of each fixture's header, checked square by square.
#[test]
fn who_knows_what_matches_the_fixture_headers() {
    let name_at = |v: &BoardView, sq: &str| -> Option<String> {
        let g = v.geometry;
        let b = sq.as_bytes();
        let s = g
            .square_written(b[0] - b'a', sq[1..].parse().unwrap())
            .unwrap();
        v.pieces[s as usize]
            .unwrap()
            .identity
            .map(|i| i.name.to_string())
    };
    let s = board("stratego.arb", 8);
    let (red, blue) = (s.seen_by(Side::First), s.seen_by(Side::Second));
    assert_eq!(name_at(&blue, "a5").as_deref(), Some("Marshal"));
    assert_eq!(name_at(&blue, "j4").as_deref(), Some("Bomb"));
    assert_eq!(
        name_at(&blue, "c4"),
        None,
        "Red's Lieutenant c4 was never in combat"
    );
    assert_eq!(name_at(&s, "c4").as_deref(), Some("Lieutenant"));
    let blue_known = (0..100).filter(|&q| {
        red.pieces[q].is_some_and(|p| p.owner == Side::Second && p.identity.is_some())
    });
    assert_eq!(
        blue_known.count(),
        0,
        "Red knows no Blue piece on the board"
    );
    assert_eq!(
        red.lost_line(Side::Second),
        "Blue lost 2: Scout, Lieutenant"
    );

    let sp = board("spionage.arb", 20);
    let (white, black) = (sp.seen_by(Side::First), sp.seen_by(Side::Second));
    assert_eq!(name_at(&white, "h6").as_deref(), Some("Corporal"));
    assert_eq!(name_at(&white, "e8"), None);
    assert_eq!(name_at(&black, "e4").as_deref(), Some("General"));
    assert_eq!(name_at(&black, "f5").as_deref(), Some("Spy"));
    assert_eq!(name_at(&black, "b6"), None, "combat unmasks nothing");
    assert_eq!(
        white.lost_line(Side::Second),
        "Black lost 2: Spy, unknown x1"
    );
    assert_eq!(black.lost_line(Side::Second), "Black lost 2: Corporal, Spy");

    let v = board("veldslag.arb", 8);
    assert_eq!(v.score, Some([8, 1]));
}

/// `arbiter ARGS` with `NO_COLOR` unset: (exit code, stdout, stderr).
fn arbiter(args: &[&str]) -> (i32, String, String) {
    bin::arbiter(args).env_remove("NO_COLOR").run().parts()
}

#[test]
fn cli_show_prints_the_board_and_writes_the_svg() {
    let dir = std::env::temp_dir().join(format!("arbiter-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("duel.svg");
    let out_arg = out.to_string_lossy().into_owned();
    let (code, stdout, stderr) = arbiter(&[
        "show",
        "fixtures/show/duel.arb",
        "--ply",
        "6",
        "--as",
        "blue",
        "--svg",
        &out_arg,
        "--color",
        "never",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        board("duel.arb", 6)
            .seen_by(Side::Second)
            .render_text(false)
    );
    assert!(stderr.contains("wrote"), "{stderr}");
    let svg = std::fs::read_to_string(&out).unwrap();
    assert_eq!(svg, board("duel.arb", 6).seen_by(Side::Second).render_svg());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cli_show_colours() {
    let args = ["show", "fixtures/show/jungle.arb", "--ply", "2"];
    let (code, always, _) = arbiter(&[&args[..], &["--color", "always"]].concat());
    assert_eq!(code, 0);
    assert!(
        always.contains("\x1b[1;91mr"),
        "Red pieces in red: {always}"
    );
    let (_, never, _) = arbiter(&[&args[..], &["--color", "never"]].concat());
    assert!(!never.contains('\x1b'));
    // Piped output with auto: no colour.
    let (_, auto, _) = arbiter(&args);
    assert_eq!(auto, never);
}

#[test]
fn cli_show_exit_codes() {
    // A ply the game never reached: the message says which plies can be shown.
    let (code, stdout, stderr) = arbiter(&["show", "fixtures/show/jungle.arb", "--ply", "8"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    insta::assert_snapshot!("cli_ply_too_far", stderr);
    let trap = "fixtures/jungle/trap_weak_takes_strong.arb";
    // (arguments after `show`, exit code, texts stderr must hold)
    let cases: &[(&[&str], i32, &[&str])] = &[
        // The replay stopped at a refused move: the finding, and the plies that can be shown.
        (
            &[trap, "--game-index", "1", "--ply", "2"],
            2,
            &[
                "illegal-move",
                "the replay stopped at ply 2 (illegal-move); plies 0 to 1 can be shown",
            ],
        ),
        (&[trap, "--game-index", "1", "--ply", "1"], 0, &[]),
        // A side the game does not have, and a word that is no side at all.
        (
            &["fixtures/show/stratego.arb", "--ply", "1", "--as", "white"],
            2,
            &["stratego has no White player; --as takes red or blue"],
        ),
        (
            &["fixtures/show/stratego.arb", "--ply", "1", "--as", "green"],
            2,
            &["invalid value 'green'"],
        ),
        (
            &["fixtures/show/spionage.arb", "--ply", "3", "--as", "white"],
            0,
            &[],
        ),
        // No such game index; no --ply.
        (
            &[
                "fixtures/show/jungle.arb",
                "--game-index",
                "3",
                "--ply",
                "0",
            ],
            2,
            &["there is no game index 3"],
        ),
        (&["fixtures/show/jungle.arb"], 2, &["--ply"]),
        // A game that cannot start: its setup findings.
        (
            &[
                "fixtures/spionage/setup.arb",
                "--game-index",
                "1",
                "--ply",
                "0",
            ],
            2,
            &["setup-invalid", "the game could not start"],
        ),
    ];
    for (args, want, texts) in cases {
        let (code, _, stderr) = arbiter(&[&["show", "--color", "never"], *args].concat());
        assert_eq!(code, *want, "{args:?}: {stderr}");
        for t in *texts {
            assert!(stderr.contains(t), "{args:?}: `{t}` not in {stderr}");
        }
    }
}

#[test]
fn check_show_draws_the_board_under_each_error() {
    let (code, stdout, _) = arbiter(&[
        "check",
        "--show",
        "--color",
        "never",
        "fixtures/history/two-squares-fourth-move.arb",
        "fixtures/jungle/trap_weak_takes_strong.arb",
    ]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("check_show", stdout);
    // Without --show, the same findings and no board.
    let (_, plain, _) = arbiter(&[
        "check",
        "--color",
        "never",
        "fixtures/history/two-squares-fourth-move.arb",
        "fixtures/jungle/trap_weak_takes_strong.arb",
    ]);
    assert!(!plain.contains("arbiter's view"));
    assert_eq!(stdout.matches("arbiter's view").count(), 3);
    // --show belongs to the human format.
    let (code, _, stderr) = arbiter(&[
        "check",
        "--show",
        "--format",
        "json",
        "fixtures/show/jungle.arb",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("human format only"), "{stderr}");
}

/// On a terminal `--color auto` colours the board unless `NO_COLOR` is set (any value); the
/// terminal is `script`'s pseudo-terminal (util-linux).
#[test]
fn cli_show_honours_no_color_on_a_terminal() {
    let on_tty = |no_color: bool| {
        let tty = bin::arbiter(["show", "fixtures/show/jungle.arb", "--ply", "2"]).on_terminal();
        let run = match no_color {
            true => tty.env("NO_COLOR", "1"),
            false => tty.env_remove("NO_COLOR"),
        }
        .run();
        assert_eq!(run.code, 0, "{run:?}");
        run.stdout
    };
    let coloured = on_tty(false);
    assert!(coloured.contains("\x1b[1;91mr"), "{coloured}");
    let plain = on_tty(true);
    assert!(!plain.contains('\x1b'), "{plain}");
    assert!(plain.contains('r'), "{plain}");
}
