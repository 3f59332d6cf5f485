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
