//! Property: `arbiter show --as SIDE` never shows an identity SIDE does not know.
//!
//! Random legal Stratego and Spionage games (shuffled setups, random moves chosen among the
//! engine's legal moves, attacks preferred when the dice say so) are written as native logs
//! and drawn after every ply through [`show::views_at`], the path `arbiter show` takes. What
//! each side knows is then recounted here, independently of the engines' own bookkeeping
//! (`Piece::revealed`, `State::unmasked`), from the placement before and after each ply:
//! - Stratego (rulings §1.1): both pieces of every attack are known to both players for the
//!   rest of the game; nothing else is ever known to the opponent.
//! - Spionage (rulings §2): after every ply, every enemy piece on one of the 8 squares around a
//!   Spy is known to the Spy's owner for the rest of the game; nothing else is.
//!
//! In every view after every ply: each own piece shows its identity; an enemy piece shows an
//! identity exactly when the recount says the viewer knows it, and then the true one; the
//! same for the pieces each side has lost. The text board (issue 21) draws every piece the
//! recount says the opponent knows with `*` after it, on the last move's squares too, and
//! marks exactly those two squares with `>`.

use arbiter::games::spionage::Spionage;
use arbiter::games::stratego::Stratego;
use arbiter::geometry::Square;
use arbiter::record::parse::parse_log;
use arbiter::record::{MoveRecord, Span};
use arbiter::report::board::BoardView;
use arbiter::rules::{GameId, Parameters, Rules, Side};
use arbiter::show;
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

pub(crate) const STRATEGO_ARMY: &str = "2X56437B8B98765432227665443322B5BSBFB322";
pub(crate) const SPIONAGE_ARMY: &str = "12345S12345SSSS1MMMM11223BBBBH";

/// Setup rows of `width` letters from `letters`, for the ranks `ranks` (front rank first).
fn rows(letters: &[char], width: usize, ranks: &[u32]) -> String {
    letters
        .chunks(width)
        .zip(ranks)
        .map(|(row, r)| format!("{r:>3} {}\n", row.iter().collect::<String>()))
        .collect()
}

fn name(sq: Square) -> String {
    format!("{}{}", (b'a' + sq % 10) as char, sq / 10 + 1)
}

/// The record of ply `turn + 1` from `f` to `t` (spans are not looked at).
fn move_record(f: Square, t: Square, turn: usize) -> MoveRecord {
    let span = Span::new(0, 0);
    let text = format!("{}-{}", name(f), name(t)).into();
    MoveRecord::new(text, span, span, turn, None)
}

/// Picks a move: an attack when `attack` and one exists, else any, by `pick`.
fn choose(
    moves: &[(Square, Square)],
    is_attack: impl Fn(Square) -> bool,
    attack: bool,
    pick: u16,
) -> (Square, Square) {
    let attacks: Vec<_> = moves.iter().copied().filter(|m| is_attack(m.1)).collect();
    let from = if attack && !attacks.is_empty() {
        &attacks
    } else {
        moves
    };
    from[pick as usize % from.len()]
}

/// A random legal classic Stratego game as a native log.
pub(crate) fn stratego_game(red: Vec<char>, blue: Vec<char>, dice: &[(bool, u16)]) -> String {
    let head = format!(
        "[Game \"stratego\"]\n[Result \"*\"]\nsetup red\n{}setup blue\n{}\n",
        rows(&red, 10, &[4, 3, 2, 1]),
        rows(&blue, 10, &[7, 8, 9, 10])
    );
    let e = Stratego::new(GameId::Stratego).unwrap();
    let rec = &parse_log(&format!("{head}*\n"))[0];
    let params = e.default_parameters();
    let mut st = e.start(rec, &params, &mut Vec::new()).unwrap();
    let mut text = head;
    for (i, &(attack, pick)) in dice.iter().enumerate() {
        if e.outcome(&st, i as u32).is_some() {
            break;
        }
        let moves = e.legal_moves(&st);
        let (f, t) = choose(&moves, |t| st.board[t as usize].is_some(), attack, pick);
        e.play(&mut st, &move_record(f, t, i), i as u32 + 1)
            .expect("a legal move");
        text.push_str(&format!("{}-{}", name(f), name(t)));
        text.push(' ');
    }
    text.push_str("*\n");
    text
}

/// A random legal Spionage game as a native log (two moves a turn where the rules ask it).
pub(crate) fn spionage_game(white: Vec<char>, black: Vec<char>, dice: &[(bool, u16)]) -> String {
    let head = format!(
        "[Game \"spionage\"]\n[Volcanoes \"a5 c6 h5 j6\"]\n[Result \"*\"]\nsetup white\n{}setup black\n{}\n",
        rows(&white, 10, &[3, 2, 1]),
        rows(&black, 10, &[8, 9, 10])
    );
    let e = Spionage::new(GameId::Spionage).unwrap();
    let rec = &parse_log(&format!("{head}*\n"))[0];
    let mut st = e
        .start(rec, &Parameters::default(), &mut Vec::new())
        .unwrap();
    let mut turns: Vec<String> = Vec::new();
    let mut ply = 0;
    let mut dice = dice.iter();
    'game: while let Some(&(attack, pick)) = dice.next() {
        if e.outcome(&st, ply).is_some() {
            break;
        }
        let mut turn = Vec::new();
        for n in 0..2 {
            let moves = e.legal_moves(&st);
            if moves.is_empty() {
                break;
            }
            let (attack, pick) = if n == 0 {
                (attack, pick)
            } else {
                match dice.next() {
                    Some(&d) => d,
                    None => break,
                }
            };
            let (f, t) = choose(&moves, |t| st.board[t as usize].is_some(), attack, pick);
            ply += 1;
            e.apply(&mut st, f, t, ply);
            turn.push(format!("{}-{}", name(f), name(t)));
            if e.outcome(&st, ply).is_some() {
                turns.push(turn.join(","));
                break 'game;
            }
        }
        e.end_turn(&mut st);
        turns.push(turn.join(","));
    }
    format!("{head}{} *\n", turns.join(" "))
}

/// Every view of `text`'s game after every ply it reaches, and the plies' from/to squares.
pub(crate) fn all_views(text: &str) -> (BTreeMap<u32, BoardView>, Vec<(Square, Square)>) {
    let rec = &parse_log(text)[0];
    let game = arbiter::pipeline::game_of(rec, &Default::default()).unwrap();
    let (params, _, _) = arbiter::pipeline::parameters_for(rec, game, &Default::default()).unwrap();
    let wanted: BTreeSet<u32> = (0..=rec.moves.len() as u32).collect();
    let (replay, views) = show::views_at(game, rec, &params, &wanted);
    assert!(
        !replay.stopped,
        "the random game replays: {:?}",
        replay.findings
    );
    assert_eq!(views.len(), replay.plies.len() + 1);
    let moves = replay.plies.iter().map(|p| (p.from, p.to)).collect();
    (views, moves)
}

/// The text board's cell of every square (4 characters: the last-move mark, the piece or
/// terrain, the mark after it), by square.
fn text_cells(view: &BoardView) -> BTreeMap<Square, String> {
    let g = view.geometry;
    let text = view.render_text(false);
    let mut cells = BTreeMap::new();
    for line in text.lines() {
        let Some((label, rest)) = line.trim_start().split_once("  ") else {
            continue;
        };
        let Ok(rank) = label.parse::<i32>() else {
            continue;
        };
        let chars: Vec<char> = rest.chars().collect();
        for file in 0..g.width as i32 {
            let sq = g
                .square(file, rank - g.rank_base as i32)
                .expect("on the board");
            let cell = chars[file as usize * 4..file as usize * 4 + 4]
                .iter()
                .collect();
            cells.insert(sq, cell);
        }
    }
    cells
}

/// Checks the text board of the arbiter's view against `known` (the ids each side knows of
/// the other's pieces): `*` after every piece its opponent knows, `>` on the last move's
/// squares only.
fn check_text(arbiter: &BoardView, known: &[BTreeSet<u16>; 2]) -> Result<(), TestCaseError> {
    let cells = text_cells(arbiter);
    prop_assert_eq!(cells.len(), arbiter.pieces.len());
    for (&sq, cell) in &cells {
        let cell: Vec<char> = cell.chars().collect();
        let last = arbiter
            .last_move
            .is_some_and(|m| m.from == sq || m.to == sq);
        prop_assert_eq!(cell[0] == '>', last, "square {} ply {}", sq, arbiter.ply);
        if let Some(p) = &arbiter.pieces[sq as usize] {
            let opponent = p.owner.other().index();
            let star = known[opponent].contains(&p.id);
            prop_assert_eq!(
                cell[3] == '*',
                star,
                "square {} ply {}: {:?}",
                sq,
                arbiter.ply,
                cell
            );
        }
    }
    Ok(())
}

/// Checks both players' views of `arbiter` against `known[viewer]` (enemy ids that viewer
/// knows), and the arbiter's text board ([`check_text`]).
fn check_views(arbiter: &BoardView, known: &[BTreeSet<u16>; 2]) -> Result<(), TestCaseError> {
    check_text(arbiter, known)?;
    for viewer in [Side::First, Side::Second] {
        let seen = arbiter.seen_by(viewer);
        let lost = (0..2).flat_map(|s| seen.lost[s].iter().zip(&arbiter.lost[s]));
        for (sq, (shown, truth)) in seen.pieces.iter().zip(&arbiter.pieces).enumerate() {
            let (Some(shown), Some(truth)) = (shown, truth) else {
                prop_assert_eq!(shown.is_some(), truth.is_some());
                continue;
            };
            prop_assert_eq!(shown.id, truth.id);
            let should = shown.owner == viewer || known[viewer.index()].contains(&shown.id);
            prop_assert_eq!(
                shown.identity.is_some(),
                should,
                "ply {} square {} piece {} ({:?}) as seen by {:?}",
                arbiter.ply,
                sq,
                shown.id,
                truth.identity,
                viewer
            );
            if shown.identity.is_some() {
                prop_assert_eq!(shown.identity, truth.identity);
            }
        }
        for (shown, truth) in lost {
            let should = shown.owner == viewer || known[viewer.index()].contains(&shown.id);
            prop_assert_eq!(shown.identity.is_some(), should, "lost piece {}", shown.id);
            if shown.identity.is_some() {
                prop_assert_eq!(shown.identity, truth.identity);
            }
        }
    }
    Ok(())
}

pub(crate) fn army(letters: &str) -> impl Strategy<Value = Vec<char>> {
    Just(letters.chars().collect::<Vec<_>>()).prop_shuffle()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn stratego_views_show_only_what_combat_revealed(
        red in army(STRATEGO_ARMY),
        blue in army(STRATEGO_ARMY),
        dice in prop::collection::vec((any::<bool>(), any::<u16>()), 1..160),
    ) {
        let text = stratego_game(red, blue, &dice);
        let (views, moves) = all_views(&text);
        // Both players know both pieces of every attack, from its ply on.
        let mut revealed = BTreeSet::new();
        let mut attacks = 0;
        check_views(&views[&0], &[BTreeSet::new(), BTreeSet::new()])?;
        for (i, &(from, to)) in moves.iter().enumerate() {
            let before = &views[&(i as u32)];
            if let (Some(a), Some(d)) = (before.pieces[from as usize], before.pieces[to as usize]) {
                revealed.insert(a.id);
                revealed.insert(d.id);
                attacks += 1;
            }
            let after = &views[&(i as u32 + 1)];
            check_views(after, &[revealed.clone(), revealed.clone()])?;
        }
        let lost = views[&(moves.len() as u32)].lost.iter().map(Vec::len).sum::<usize>();
        prop_assert!(attacks == 0 || lost > 0, "every attack removes a piece");
    }

    #[test]
    fn spionage_views_show_only_what_spies_unmasked(
        white in army(SPIONAGE_ARMY),
        black in army(SPIONAGE_ARMY),
        dice in prop::collection::vec((any::<bool>(), any::<u16>()), 1..400),
    ) {
        let text = spionage_game(white, black, &dice);
        let (views, moves) = all_views(&text);
        let mut known = [BTreeSet::new(), BTreeSet::new()];
        for ply in 0..=moves.len() as u32 {
            let v = &views[&ply];
            let g = v.geometry;
            for sq in 0..g.squares() as Square {
                let Some(spy) = v.pieces[sq as usize].filter(|p| {
                    p.identity.is_some_and(|i| i.name == "Spy")
                }) else {
                    continue;
                };
                for df in -1..=1 {
                    for dr in -1..=1 {
                        let Some(n) = g.square(g.file(sq) as i32 + df, g.rank(sq) as i32 + dr) else {
                            continue;
                        };
                        if let Some(q) = v.pieces[n as usize].filter(|q| q.owner != spy.owner) {
                            known[spy.owner.index()].insert(q.id);
                        }
                    }
                }
            }
            check_views(v, &known)?;
        }
    }
}
