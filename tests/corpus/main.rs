//! The real records in `../shared/corpus/` (never copied here): each test prints SKIPPED when its folder is absent.

#[path = "../support/corpus.rs"]
mod corpus_support;
#[path = "../support/from_ply.rs"]
mod from_ply_support;
#[path = "../support/roundtrip.rs"]
mod roundtrip;

mod archives;
mod convert_roundtrip;
mod dhtmlxq;
mod engine_pgn;
mod from_ply;
mod gravon;
mod jungle;
mod setups;
mod ucc2012;
mod xqf;

/// Judge logs and saved games concatenated into one file are each one game, judged as each
/// is alone (plies, outcome, finding codes at their plies): the whole file was once one
/// game, judged against the last game's end line (a false `result-mismatch`), the others
/// lost. The first 8 files of each importer's corpus folder.
#[test]
fn concatenated_importer_files_are_each_judged_alone() {
    use arbiter::pipeline::GameReport;
    fn judged(g: &GameReport) -> String {
        let mut codes: Vec<(Option<u32>, String)> = g
            .findings
            .iter()
            .map(|f| (f.ply, f.code.to_string()))
            .collect();
        codes.sort();
        let end = g
            .outcome
            .as_ref()
            .map(|o| (o.result.as_str(), o.reason, o.ply));
        format!("{} plies, {end:?}, {codes:?}", g.plies)
    }
    for folder in ["stratego-ucc2012", "jungle-layhenghok"] {
        let Some(dir) = corpus_support::corpus_dir(folder) else {
            continue;
        };
        let mut files: Vec<_> = walkdir::WalkDir::new(&dir)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(|e| e.into_path())
            .filter(|p| !p.extension().is_some_and(|x| x == "md" || x == "tsv"))
            .collect();
        files.truncate(8);
        let (mut all, mut alone) = (String::new(), Vec::new());
        for f in &files {
            let mut text = std::fs::read_to_string(f).expect("a corpus file");
            if !text.ends_with('\n') {
                text.push('\n');
            }
            let reports = corpus_support::check_text("one", &text);
            assert_eq!(reports.len(), 1, "{}", f.display());
            alone.push(judged(&reports[0]));
            all.push_str(&text);
        }
        let together: Vec<String> = corpus_support::check_text("all", &all)
            .iter()
            .map(judged)
            .collect();
        assert_eq!(together, alone, "{folder}");
        assert_eq!(together.len(), 8, "{folder}");
    }
}
