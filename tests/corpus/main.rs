//! The real records in `../shared/corpus/` (never copied here): each test prints SKIPPED when its folder is absent.

#[path = "../support/corpus.rs"]
mod corpus_support;

mod archives;
mod dhtmlxq;
mod gravon;
mod jungle;
mod setups;
mod ucc2012;
mod xqf;
