//! Every real Barrage (3,132) and Duel (32) setup of the Gravon archive, from
//! `../shared/corpus/stratego-gravon-setups/` (rhalbersma/gravon CSV summaries; SOURCE.md
//! there), validates under rulings §1.1, and a setup altered by one piece does not.
//!
//! Each row's `field_content` is the 100-character Gravon field (index i = file
//! `"ABCDEFGHIK"[i % 10]`, rank `i / 10 + 1`; Red's letters in characters 0-39, Blue's in
//! 60-99, the middle 20 always `AA__AA__AAAA__AA__AA`). It is written as a native log with
//! `arbiter::record::gravon::field_letter` and judged by the whole pipeline with no moves.
//! The same field is also read through the Gravon XML importer (a `duell-` file name marks a
//! Duel), so both ways into the engine accept the real setups.

use crate::corpus_support;

use arbiter::record::gravon::field_letter;
use arbiter::{check_source, Code, GameReport, Options, Source};
use corpus_support::{check_text, corpus_dir, describe, error_codes, native_log};

const MIDDLE: &str = "AA__AA__AAAA__AA__AA";

/// One CSV row: the game id and its field.
struct Row {
    id: String,
    field: String,
}

/// Reads `file` of the setups corpus: header, then
/// `game_id,game_fmt,game_type,field_content,game_length,name1,name2,result_type,winner`.
fn rows(file: &str, game_type: &str) -> Option<Vec<Row>> {
    let dir = corpus_dir("stratego-gravon-setups")?;
    let text = std::fs::read_to_string(dir.join(file)).expect("readable CSV");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("game_id,game_fmt,game_type,field_content,game_length,name1,name2,result_type,winner")
    );
    Some(
        lines
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let cols: Vec<&str> = l.split(',').collect();
                assert_eq!(cols.len(), 9, "{l}");
                assert_eq!(cols[2], game_type, "{l}");
                Row {
                    id: cols[0].to_string(),
                    field: cols[3].to_string(),
                }
            })
            .collect(),
    )
}

/// The native log of a Gravon field with no moves: Red's ranks 1-4 from characters 0-39,
/// Blue's ranks 7-10 from 60-99, translated with `field_letter` (a letter of the wrong
/// colour stays as it is, which the engine rejects).
fn log_of(game: &str, field: &str) -> String {
    let b = field.as_bytes();
    assert_eq!(b.len(), 100, "a field has 100 characters");
    assert_eq!(&field[40..60], MIDDLE, "ranks 5 and 6 hold only the lakes");
    let rows = |side: usize, ranks: std::ops::Range<usize>| -> Vec<(u32, String)> {
        ranks
            .rev()
            .map(|r| {
                let cells = b[r * 10..r * 10 + 10]
                    .iter()
                    .map(|&c| field_letter(c, side).unwrap_or(c as char))
                    .collect();
                (r as u32 + 1, cells)
            })
            .collect()
    };
    native_log(
        &[("Game", game.to_string()), ("Result", "*".to_string())],
        &rows(0, 0..4),
        &rows(1, 6..10),
        "*",
    )
}

fn judge_native(game: &str, id: &str, field: &str) -> GameReport {
    let mut r = check_text(id, &log_of(game, field));
    assert_eq!(r.len(), 1);
    r.remove(0)
}

fn judge_xml(game_type: &str, file_name: &str, field: &str) -> GameReport {
    let xml = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<stratego>\n <game type=\"{game_type}\">\n  \
         <field content=\"{field}\"/>\n  <result type=\"4\" winner=\"3\"/>\n </game>\n</stratego>\n"
    );
    let mut r = check_source(
        &Source::from_bytes(file_name, xml.into_bytes()),
        &Options::default(),
    );
    assert_eq!(r.len(), 1);
    r.remove(0)
}

/// Counts of each native letter in one side's part of a field.
fn army(field: &str, side: usize) -> String {
    let part = if side == 0 {
        &field[..40]
    } else {
        &field[60..]
    };
    let mut letters: Vec<char> = part
        .bytes()
        .filter_map(|c| field_letter(c, side))
        .filter(|&c| c != '.')
        .collect();
    letters.sort_unstable();
    letters.into_iter().collect()
}

/// Checks every row of `file`; returns how many were judged.
fn all_valid(file: &str, csv_type: &str, game: &str, xml_name: &str, army_letters: &str) -> usize {
    let Some(rows) = rows(file, csv_type) else {
        return 0;
    };
    for row in &rows {
        // The army as the CSV gives it, read independently of the engine.
        assert_eq!(army(&row.field, 0), army_letters, "{}: Red", row.id);
        assert_eq!(army(&row.field, 1), army_letters, "{}: Blue", row.id);
        let native = judge_native(game, &row.id, &row.field);
        assert_eq!(
            error_codes(&native),
            vec![],
            "{}: {}",
            row.id,
            describe(&native)
        );
        assert_eq!(native.game.map(|g| g.as_str()), Some(game));
        let replay = native.replay.as_ref().expect("replayed");
        assert!(!replay.stopped, "{}: the game starts", row.id);
        let xml = judge_xml(csv_type_to_xml(csv_type), xml_name, &row.field);
        assert_eq!(error_codes(&xml), vec![], "{}: {}", row.id, describe(&xml));
        assert_eq!(xml.game.map(|g| g.as_str()), Some(game), "{}", row.id);
        assert_eq!(
            xml.replay.as_ref().map(|r| r.start_key),
            Some(replay.start_key),
            "{}: the XML and the native log give the same start position",
            row.id
        );
    }
    rows.len()
}

/// Gravon's XML writes a Duel game as `classic` (only the `duell-` file name marks it).
fn csv_type_to_xml(csv_type: &str) -> &str {
    match csv_type {
        "duell" => "classic",
        other => other,
    }
}

#[test]
fn all_3132_real_barrage_setups_validate() {
    // Flag, Bomb, Spy, 2 Scouts, Miner, General, Marshal (rulings §1.1), in sorted letters.
    let n = all_valid(
        "barrage.csv",
        "barrage",
        "barrage",
        "barrage-test.xml",
        "2239BFSX",
    );
    if n > 0 {
        assert_eq!(n, 3132);
    }
}

#[test]
fn all_32_real_duel_setups_validate() {
    // Flag, 2 Bombs, Spy, 2 Scouts, 2 Miners, General, Marshal (rulings §1.1).
    let n = all_valid("duell.csv", "duell", "duel", "duell-test.xml", "22339BBFSX");
    if n > 0 {
        assert_eq!(n, 32);
    }
}

/// Replaces the character at `i` of `field`.
fn with(field: &str, i: usize, c: char) -> String {
    let mut s: Vec<char> = field.chars().collect();
    s[i] = c;
    s.into_iter().collect()
}

#[test]
fn a_real_setup_altered_by_one_piece_is_rejected() {
    for (file, csv_type, game) in [
        ("barrage.csv", "barrage", "barrage"),
        ("duell.csv", "duell", "duel"),
    ] {
        let Some(rows) = rows(file, csv_type) else {
            return;
        };
        let field = &rows[0].field;
        let red_piece = field[..40].find(|c| c != 'A').expect("Red has pieces");
        let red_empty = field[..40]
            .find('A')
            .expect("Barrage/Duel leave squares empty");
        let blue_piece = 60 + field[60..].find(|c| c != 'A').expect("Blue has pieces");
        let blue_empty = 60 + field[60..].find('A').expect("empty squares");
        let red_letter = field.as_bytes()[red_piece] as char;
        let blue_letter = field.as_bytes()[blue_piece] as char;
        let altered = [
            ("Red piece removed", with(field, red_piece, 'A')),
            ("Red piece duplicated", with(field, red_empty, red_letter)),
            ("Blue piece removed", with(field, blue_piece, 'A')),
            (
                "Blue piece duplicated",
                with(field, blue_empty, blue_letter),
            ),
            // A Blue letter among Red's rows: the wrong colour in the zone.
            (
                "Blue piece in Red's zone",
                with(field, red_empty, blue_letter),
            ),
        ];
        for (what, f) in altered {
            let g = judge_native(game, what, &f);
            assert_eq!(
                error_codes(&g),
                vec![Code::SetupInvalid],
                "{game}, {what}: {}",
                describe(&g)
            );
            assert!(g.replay.as_ref().is_some_and(|r| r.stopped));
            let x = judge_xml(csv_type_to_xml(csv_type), &format!("{csv_type}-x.xml"), &f);
            assert!(
                error_codes(&x).contains(&Code::SetupInvalid),
                "{game} via XML, {what}: {}",
                describe(&x)
            );
        }
    }
}
