//! The binary as users run it: commands, output formats, exit codes, hostile input and boards.

mod cli;
mod escaping;
mod formats;
mod hostile;
mod output;
mod show;
mod streaming;
mod truthful;
