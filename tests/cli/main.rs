//! The binary as users run it: commands, output formats, exit codes, hostile input and boards.

mod archives;
mod cli;
mod formats;
mod hostile;
mod report;
mod show;
