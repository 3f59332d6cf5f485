//! Property: on the Xiangqi and Jieqi boards of points (issue 31) every piece is drawn
//! centred on a point, an intersection of a drawn file line and a drawn rank line.
//!
//! Random legal games (Xiangqi from the start, Jieqi from a random shuffle given in setup
//! sections, so covered pieces carry identities in the arbiter's view) are replayed through
//! `show::board_at`, the path `arbiter show` takes, and drawn as SVG in every view and with
//! both faces. The lines are read back from the picture's grid path (`M x y H x2` is a rank
//! line, `M x y V y2` a file line); every piece disc (and its inner ring, and the ring of a
//! piece nobody knows) must have its centre on one of their crossings, and there must be
//! exactly one disc per piece of the view.

use arbiter::games::xiangqi::random::{jieqi_shuffle, random_game};
use arbiter::games::xiangqi::{Move, Position, GEOMETRY, SQUARES};
use arbiter::pipeline::{check_source, parse_source, Options, Source};
use arbiter::report::svg::{Faces, CELL};
use arbiter::rules::{Overrides, Side};
use arbiter::show;
use proptest::prelude::*;
use std::collections::BTreeSet;

/// The piece disc's radius and the radii drawn around the same centre.
const DISC: u32 = CELL * 44 / 100;

/// An ICCS log of `moves` from the start, or from `shuffle`'s setup sections (Jieqi).
fn log(moves: &[Move], shuffle: Option<&Position>) -> String {
    let mut s = String::new();
    match shuffle {
        None => s.push_str("[Game \"xiangqi\"]\n[Result \"*\"]\n\n"),
        Some(pos) => {
            s.push_str("[Game \"jieqi\"]\n[Result \"*\"]\n");
            for (side, ranks) in [("red", 0..4), ("black", 6..10)] {
                s.push_str(&format!("setup {side}\n"));
                for r in ranks {
                    let row: String = (0..9)
                        .map(|f| match pos.piece((r * 9 + f) as u8) {
                            Some(p) if p.is_covered() => {
                                let c = p.kind().letter();
                                if p.side() == Side::First {
                                    c
                                } else {
                                    c.to_ascii_lowercase()
                                }
                            }
                            _ => '.',
                        })
                        .collect();
                    s.push_str(&format!("  {r} {row}\n"));
                }
            }
            s.push('\n');
        }
    }
    for (i, m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            s.push_str(&format!("{}. ", i / 2 + 1));
        }
        s.push_str(&m.iccs());
        s.push(' ');
    }
    s.push_str("*\n");
    s
}

/// Numbers after `name="` in an SVG element's text.
fn attr(element: &str, name: &str) -> Option<f32> {
    let key = format!(" {name}=\"");
    let at = element.find(&key)? + key.len();
    element[at..].split('"').next()?.parse().ok()
}

/// The x of every drawn file line and the y of every drawn rank line of the grid path.
fn grid(svg: &str) -> (BTreeSet<i64>, BTreeSet<i64>) {
    let (mut files, mut ranks) = (BTreeSet::new(), BTreeSet::new());
    let path = svg
        .lines()
        .find(|l| l.starts_with("<path d=\"M") && l.contains(" H "))
        .expect("the grid path");
    let d = path.split('"').nth(1).unwrap();
    let words: Vec<&str> = d.split(' ').collect();
    for w in words.windows(5) {
        if w[0] == "M" && (w[3] == "H" || w[3] == "V") {
            let (x, y): (i64, i64) = (w[1].parse().unwrap(), w[2].parse().unwrap());
            if w[3] == "H" {
                ranks.insert(y);
            } else {
                files.insert(x);
            }
        }
    }
    (files, ranks)
}

/// Checks one picture; returns how many piece discs it has.
fn discs_on_points(svg: &str) -> Result<usize, TestCaseError> {
    let (files, ranks) = grid(svg);
    prop_assert_eq!(files.len(), 9, "9 file lines");
    prop_assert_eq!(ranks.len(), 10, "10 rank lines");
    let mut discs = 0;
    for el in svg.split('<').filter(|e| e.starts_with("circle ")) {
        let r = attr(el, "r").unwrap() as u32;
        if ![DISC, DISC - 4, DISC + 3].contains(&r) {
            continue; // the gold dot of a known piece sits on the disc's rim
        }
        let (cx, cy) = (attr(el, "cx").unwrap(), attr(el, "cy").unwrap());
        prop_assert!(cx.fract() == 0.0 && cy.fract() == 0.0, "{el}");
        prop_assert!(files.contains(&(cx as i64)), "x {cx} on no file line: {el}");
        prop_assert!(ranks.contains(&(cy as i64)), "y {cy} on no rank line: {el}");
        discs += usize::from(r == DISC && el.contains(" stroke=")); // not the backing of a covered piece
    }
    Ok(discs)
}

fn check_game(text: &str) -> Result<(), TestCaseError> {
    let src = Source::from_bytes("random.arb", text.as_bytes().to_vec());
    let rec = &parse_source(&src)[0];
    // The game may end on the board before its last ply (a third repetition).
    let plies = check_source(&src, &Options::default())[0].plies as u32;
    let v = show::board_at(rec, &Overrides::default(), plies)
        .map_err(|e| TestCaseError::fail(format!("{}\n{text}", e.message)))?;
    prop_assert!(v.on_points());
    let pieces = v.pieces.iter().flatten().count();
    prop_assert!(pieces <= SQUARES && v.geometry == GEOMETRY);
    for view in [v.clone(), v.seen_by(Side::First), v.seen_by(Side::Second)] {
        for faces in [Faces::Letters, Faces::Chinese] {
            let discs = discs_on_points(&view.render_svg_with(faces))?;
            prop_assert_eq!(discs, pieces, "one disc per piece");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn xiangqi_pieces_stand_on_points(seed in any::<u64>(), plies in 0usize..160) {
        let moves = random_game(&Position::start(), seed, plies);
        check_game(&log(&moves, None))?;
    }

    #[test]
    fn jieqi_pieces_stand_on_points(seed in any::<u64>(), plies in 0usize..160) {
        let shuffle = jieqi_shuffle(seed);
        let moves = random_game(&shuffle, seed, plies);
        check_game(&log(&moves, Some(&shuffle)))?;
    }
}
