//! Reading inputs as a stream of [`Chunk`]s: one native game at a time (so memory is bounded by
//! the largest game, not the archive), or a whole Gravon XML file.
//!
//! Paths are expanded in a stable order ([`expand`]); anything that cannot be read becomes an
//! [`Input::Unreadable`] that is reported, never skipped. Bytes that are not UTF-8 are replaced
//! by `?` bytes of the same length, so every offset still points into the user's file, and each
//! such run gets a `parse-error` finding.

use crate::finding::{Code, Finding};
use crate::record::split::Splitter;
use crate::rulebook::Rule;
use crate::types::Span;
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::sync::Arc;

/// One thing to read.
#[derive(Debug, Clone)]
pub enum Input {
    /// A file.
    File(PathBuf),
    /// Standard input (`-`).
    Stdin,
    /// A path that could not be read: its name and why.
    Unreadable {
        /// The path as found.
        name: String,
        /// The reason (I/O error, symlink loop, ...).
        why: String,
    },
}

impl Input {
    /// The name used in reports: the path with bytes that are not UTF-8 written `\xNN`
    /// ([`path_name`]).
    pub fn name(&self) -> String {
        match self {
            Input::File(p) => path_name(p),
            Input::Stdin => "<stdin>".to_string(),
            Input::Unreadable { name, .. } => name.clone(),
        }
    }
}

/// A path as reports name it: its UTF-8 as it is, every byte that is not UTF-8 as `\xNN`, so
/// two different file names never print alike (the lossy `Path::display` makes both `�`).
pub fn path_name(p: &std::path::Path) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let mut out = String::new();
        for chunk in p.as_os_str().as_bytes().utf8_chunks() {
            out.push_str(chunk.valid());
            for b in chunk.invalid() {
                out.push_str(&format!("\\x{b:02X}"));
            }
        }
        out
    }
    #[cfg(not(unix))]
    {
        p.display().to_string()
    }
}

/// The extensions a directory walk picks up.
pub const LOG_EXTENSIONS: [&str; 4] = ["arb", "pgn", "xml", "xqf"];

/// The extensions a directory walk picks up when the file holds a DhtmlXQ record (web pages
/// and text files that do not are passed over).
pub const DHTMLXQ_EXTENSIONS: [&str; 3] = ["txt", "html", "htm"];

/// How much of a `.txt` or `.html` file a walk reads to know whether it holds a DhtmlXQ
/// record.
const DHTMLXQ_SNIFF: u64 = 4 << 20;

/// True when the file at `p` holds a DhtmlXQ record in its first [`DHTMLXQ_SNIFF`] bytes (a
/// file that cannot be read is taken, so that the reason is reported).
fn holds_dhtmlxq(p: &std::path::Path) -> bool {
    let mut head = Vec::new();
    match std::fs::File::open(p).and_then(|f| f.take(DHTMLXQ_SNIFF).read_to_end(&mut head)) {
        Ok(_) => crate::record::dhtmlxq::looks_like_dhtmlxq(&head),
        Err(_) => true,
    }
}

/// Expands the command line's paths, in a stable order: files as given, directories walked
/// (following symlinks, sorted by name; only files with the [`LOG_EXTENSIONS`]), `-` for
/// stdin. A dangling symlink, a symlink loop or a permission error becomes
/// [`Input::Unreadable`], and so does anything a walk finds that is not a regular file, a
/// device named directly, and a directory in which nothing could be read.
pub fn expand(paths: &[PathBuf]) -> Vec<Input> {
    let mut out = Vec::new();
    for p in paths {
        let before = out.len();
        if p.is_dir() && p.as_os_str() != "-" {
            walk(p, &mut out);
            if out.len() == before {
                out.push(Input::Unreadable {
                    name: path_name(p),
                    why: format!(
                        "a directory with no game record in it (looked for files ending .{}, and DhtmlXQ records in .{})",
                        LOG_EXTENSIONS.join(", ."),
                        DHTMLXQ_EXTENSIONS.join(", .")
                    ),
                });
            }
            continue;
        }
        if p.as_os_str() == "-" {
            out.push(Input::Stdin);
        } else if is_device(p) {
            out.push(Input::Unreadable {
                name: p.display().to_string(),
                why: "a device, not a file (its reading might never end)".into(),
            });
        } else {
            out.push(Input::File(p.clone()));
        }
    }
    out
}

/// The log files under the directory `p`, sorted by name, appended to `out`.
fn walk(p: &std::path::Path, out: &mut Vec<Input>) {
    let walker = walkdir::WalkDir::new(p)
        .follow_links(true)
        .sort_by_file_name();
    for entry in walker {
        match entry {
            Ok(e) => {
                if e.file_type().is_dir() {
                    continue;
                }
                let ext = e
                    .path()
                    .extension()
                    .and_then(|x| x.to_str())
                    .map(|x| x.to_ascii_lowercase());
                let dhtmlxq = ext
                    .as_deref()
                    .is_some_and(|x| DHTMLXQ_EXTENSIONS.contains(&x));
                if dhtmlxq && e.file_type().is_file() && !holds_dhtmlxq(e.path()) {
                    continue;
                }
                if dhtmlxq || ext.is_some_and(|x| LOG_EXTENSIONS.contains(&x.as_str())) {
                    if e.file_type().is_file() {
                        out.push(Input::File(e.path().to_path_buf()));
                    } else {
                        // A FIFO or device named like a log: opening it could block
                        // the walk or never end.
                        out.push(Input::Unreadable {
                            name: path_name(e.path()),
                            why: "not a regular file (a FIFO, socket or device)".into(),
                        });
                    }
                }
            }
            Err(e) => {
                let name = e.path().map(path_name).unwrap_or_else(|| path_name(p));
                let why = if e.loop_ancestor().is_some() {
                    "symbolic link loop".to_string()
                } else {
                    e.io_error()
                        .map(|io| io.to_string())
                        .unwrap_or_else(|| e.to_string())
                };
                out.push(Input::Unreadable { name, why });
            }
        }
    }
}

/// True for a character or block device or a socket: named on the command line, these are
/// refused (a FIFO, as from `<(...)`, is read as given).
fn is_device(p: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata(p).is_ok_and(|m| {
            let t = m.file_type();
            t.is_char_device() || t.is_block_device() || t.is_socket()
        })
    }
    #[cfg(not(unix))]
    {
        let _ = p;
        false
    }
}

/// What a chunk holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChunkKind {
    /// One game of a native log.
    Native,
    /// One game of a Gravon XML file.
    Gravon,
    /// A binary XQF record ([`Chunk::raw`] holds its bytes; `text` is empty).
    Xqf,
    /// One DhtmlXQ block ([`Chunk::raw`] holds its bytes, `text` the same as UTF-8 with
    /// anything that is not, GB18030 text, shown as `?`).
    DhtmlXq,
    /// A source with no game at all (empty, or only white space).
    Empty,
    /// A source that could not be read; the reason.
    Unreadable(String),
    /// `--game-index` past the last game: the source holds this many games
    /// ([`Chunk::first_index`] is the index asked for).
    NoSuchGame(usize),
}

/// A piece of a source: one native game, or a whole Gravon file.
#[derive(Debug, Clone)]
pub struct Chunk {
    /// The source's name.
    pub source: Arc<str>,
    /// What it holds.
    pub kind: ChunkKind,
    /// Byte offset of `text` in the source.
    pub offset: usize,
    /// 0-based line number of `text`'s first byte in the source.
    pub line: usize,
    /// Characters before `text`'s first byte on its line of the source (0 for a native game,
    /// which starts a line; a Gravon game may start inside one).
    pub column: usize,
    /// Bytes before `text`'s first byte on its line of the source (byte columns, as reviewdog
    /// counts them).
    pub column_bytes: usize,
    /// The text (invalid UTF-8 repaired as `?`).
    pub text: String,
    /// A binary record's bytes ([`ChunkKind::Xqf`]); empty for text.
    pub raw: Vec<u8>,
    /// `parse-error`s for invalid UTF-8 in this chunk (spans are source offsets).
    pub byte_findings: Vec<Finding>,
    /// Index (from 0) of the chunk's first game in its source.
    pub first_index: usize,
}

impl Chunk {
    /// The chunk that reports `--game-index index` past the last of the `games` games of
    /// the source `name`.
    pub fn no_such_game(name: &str, games: usize, index: usize) -> Chunk {
        let mut c = Chunk::special(Arc::from(name), ChunkKind::NoSuchGame(games));
        c.first_index = index;
        c
    }

    fn special(source: Arc<str>, kind: ChunkKind) -> Chunk {
        Chunk {
            source,
            kind,
            offset: 0,
            line: 0,
            column: 0,
            column_bytes: 0,
            text: String::new(),
            raw: Vec::new(),
            byte_findings: Vec::new(),
            first_index: 0,
        }
    }
}

/// Characters in UTF-8 bytes (continuation bytes not counted).
fn char_count(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// Turns bytes into text: each invalid UTF-8 sequence becomes `?` bytes of the same length
/// and a `parse-error` finding (spans are `base` + offset).
pub fn repair_utf8(bytes: Vec<u8>, base: usize) -> (String, Vec<Finding>) {
    match String::from_utf8(bytes) {
        Ok(t) => (t, Vec::new()),
        Err(e) => {
            let mut bytes = e.into_bytes();
            let mut findings = Vec::new();
            let mut pos = 0;
            while pos < bytes.len() {
                let Err(err) = std::str::from_utf8(&bytes[pos..]) else {
                    break;
                };
                let bad_start = pos + err.valid_up_to();
                let bad_len = err.error_len().unwrap_or(bytes.len() - bad_start);
                for b in &mut bytes[bad_start..bad_start + bad_len] {
                    *b = b'?';
                }
                // Neighbouring bad sequences make one finding.
                match findings.last_mut() {
                    Some(Finding { span, .. }) if span.end == base + bad_start => {
                        span.end = base + bad_start + bad_len;
                    }
                    _ => findings.push(
                        Finding::new(
                            Code::ParseError,
                            Span::new(base + bad_start, base + bad_start + bad_len),
                            "invalid UTF-8 in the log",
                            Rule::LogUtf8,
                        )
                        .label("these bytes are not UTF-8")
                        .help(
                            "save the file as UTF-8; the game containing these bytes is not judged",
                        ),
                    ),
                }
                pos = bad_start + bad_len;
            }
            cap_findings(&mut findings);
            (String::from_utf8(bytes).unwrap_or_default(), findings)
        }
    }
}

/// Most invalid-UTF-8 findings a game gets one by one; the rest are counted in one more.
const MAX_UTF8_FINDINGS: usize = 16;

/// Keeps the first [`MAX_UTF8_FINDINGS`] invalid-UTF-8 findings and folds the others into
/// one that spans them and says how many there are: a game of random bytes is not judged
/// anyway, and its report stays readable and small.
fn cap_findings(findings: &mut Vec<Finding>) {
    if findings.len() <= MAX_UTF8_FINDINGS {
        return;
    }
    let rest = findings.split_off(MAX_UTF8_FINDINGS);
    let (first, last) = (rest[0].span, rest[rest.len() - 1].span);
    findings.push(
        Finding::new(
            Code::ParseError,
            first,
            format!("{} more runs of invalid UTF-8 in this game", rest.len()),
            Rule::LogUtf8,
        )
        .label("the first of them")
        .with_label(Span::new(last.start, last.end), "the last of them")
        .help("save the file as UTF-8; the game containing these bytes is not judged"),
    );
}

/// How many bytes of a source are looked at to know its format.
pub const SNIFF_BYTES: usize = 64 << 10;

/// True when the text is XML whose first element is Gravon's `<stratego>` (or a bare
/// `<game>`): after a byte order mark, white space, the XML declaration, comments, processing
/// instructions and a DOCTYPE, however long, as far as `head` reaches.
pub fn looks_like_gravon(head: &[u8]) -> bool {
    let mut i = if head.starts_with(&[0xEF, 0xBB, 0xBF]) {
        3
    } else {
        0
    };
    loop {
        while i < head.len() && head[i].is_ascii_whitespace() {
            i += 1;
        }
        let rest = &head[i..];
        let skip = |open: usize, close: &[u8]| {
            memchr::memmem::find(&rest[open..], close).map(|e| i + open + e + close.len())
        };
        let next = if rest.starts_with(b"<?") {
            skip(2, b"?>")
        } else if rest.starts_with(b"<!--") {
            skip(4, b"-->")
        } else if rest.starts_with(b"<!DOCTYPE") || rest.starts_with(b"<!doctype") {
            skip(9, b">")
        } else {
            let element = |name: &[u8]| {
                rest.starts_with(name)
                    && rest
                        .get(name.len())
                        .is_none_or(|c| c.is_ascii_whitespace() || b"/>".contains(c))
            };
            return element(b"<stratego") || element(b"<game");
        };
        match next {
            Some(n) => i = n,
            // The prolog runs past what was looked at: XML all the same.
            None => return true,
        }
    }
}

/// True when the text starts (after a byte order mark and white space) with markup, `<`:
/// a web page, whose DhtmlXQ record may lie past the first bytes looked at.
fn looks_like_markup(head: &[u8]) -> bool {
    let body = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'<')
}

/// Up to [`SNIFF_BYTES`] first bytes of `reader` (fewer only at the end of the input), and
/// a reader that yields them and then the rest: the format is known whatever the file is
/// called and however the input arrives in pieces.
fn sniff(mut reader: Box<dyn Read + Send>) -> std::io::Result<(Vec<u8>, Box<dyn Read + Send>)> {
    let mut head = Vec::with_capacity(SNIFF_BYTES);
    let mut buf = [0u8; 8192];
    while head.len() < SNIFF_BYTES {
        let n = match reader.read(&mut buf[..(SNIFF_BYTES - head.len()).min(8192)]) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        head.extend_from_slice(&buf[..n]);
    }
    let again = std::io::Cursor::new(head.clone()).chain(reader);
    Ok((head, Box::new(again)))
}

/// Streams the chunks of one input.
pub fn chunks(input: &Input) -> Box<dyn Iterator<Item = Chunk> + Send> {
    let name: Arc<str> = Arc::from(input.name());
    let reader: Box<dyn Read + Send> = match input {
        Input::Unreadable { why, .. } => {
            return Box::new(std::iter::once(Chunk::special(
                name,
                ChunkKind::Unreadable(why.clone()),
            )))
        }
        Input::Stdin => Box::new(std::io::stdin()),
        Input::File(p) => match std::fs::File::open(p) {
            Ok(f) => Box::new(f),
            Err(e) => {
                return Box::new(std::iter::once(Chunk::special(
                    name,
                    ChunkKind::Unreadable(e.to_string()),
                )))
            }
        },
    };
    let (head, reader) = match sniff(reader) {
        Ok(r) => r,
        Err(e) => {
            return Box::new(std::iter::once(Chunk::special(
                name,
                ChunkKind::Unreadable(e.to_string()),
            )))
        }
    };
    let mut r = ChunkReader::new(name, BufReader::with_capacity(1 << 16, reader));
    r.head = Some(head);
    Box::new(r)
}

/// The chunks of a text already in memory (same cuts as [`chunks`]).
pub fn chunks_of_text(name: &str, bytes: Vec<u8>) -> Vec<Chunk> {
    ChunkReader::new(Arc::from(name), std::io::Cursor::new(bytes)).collect()
}

/// `BufRead::read_until(b'\n')` with the vectorised `memchr` (std's search is a word at a
/// time; this is most of reading an archive): appends one line, newline included, to `out`
/// and returns its length (0 at the end). Interrupted reads are retried, like std's.
fn read_line<R: BufRead>(reader: &mut R, out: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut read = 0;
    loop {
        let buf = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let (done, used) = match memchr::memchr(b'\n', buf) {
            Some(i) => (true, i + 1),
            None => (buf.is_empty(), buf.len()),
        };
        out.extend_from_slice(&buf[..used]);
        reader.consume(used);
        read += used;
        if done {
            return Ok(read);
        }
    }
}

/// The streaming cutter behind [`chunks`].
pub struct ChunkReader<R: BufRead> {
    name: Arc<str>,
    reader: R,
    splitter: Splitter,
    offset: usize,
    line: usize,
    cur: Vec<u8>,
    cur_offset: usize,
    cur_line: usize,
    /// Characters and bytes before `offset` on its line (Gravon games may start inside a line).
    column: usize,
    column_bytes: usize,
    index: usize,
    state: ReaderState,
    pending: std::collections::VecDeque<Chunk>,
    /// The first bytes of the source, when [`chunks`] looked at them already.
    head: Option<Vec<u8>>,
}

#[derive(PartialEq, Eq)]
enum ReaderState {
    Start,
    Native,
    /// A Gravon file read whole: its bytes and where each game's piece starts and ends.
    Gravon(Vec<u8>, Vec<(usize, usize)>, usize),
    /// A file of DhtmlXQ blocks read whole: its bytes and each block's.
    DhtmlXq(Vec<u8>, Vec<(usize, usize)>, usize),
    Done,
}

impl<R: BufRead> ChunkReader<R> {
    /// A reader of the source `name`.
    pub fn new(name: Arc<str>, reader: R) -> Self {
        ChunkReader {
            name,
            reader,
            splitter: Splitter::new(),
            offset: 0,
            line: 0,
            cur: Vec::new(),
            cur_offset: 0,
            cur_line: 0,
            column: 0,
            column_bytes: 0,
            index: 0,
            state: ReaderState::Start,
            pending: std::collections::VecDeque::new(),
            head: None,
        }
    }

    fn emit(&mut self, bytes: Vec<u8>, offset: usize, line: usize, kind: ChunkKind) -> Chunk {
        let (text, byte_findings) = repair_utf8(bytes, offset);
        let c = Chunk {
            source: self.name.clone(),
            kind,
            offset,
            line,
            column: 0,
            column_bytes: 0,
            text,
            raw: Vec::new(),
            byte_findings,
            first_index: self.index,
        };
        self.index += 1;
        c
    }

    /// The last game's bytes when the source ended inside a brace comment: the comment did
    /// not hide the games after it. The text is cut again from the line after the one that
    /// opened the comment, as if it were closed there: the game with the open comment keeps
    /// its `parse-error` (unterminated comment), each later game is judged on its own.
    fn cut_unterminated(&mut self, bytes: Vec<u8>) -> Option<Chunk> {
        let base = self.cur_offset;
        let mut cuts = vec![0usize];
        if let Some(open) = self.splitter.open_comment() {
            // One pass: no `}` follows the comment, so every later comment ends with its line.
            let rel = open.saturating_sub(base).min(bytes.len());
            let mut at = memchr::memchr(b'\n', &bytes[rel..]).map_or(bytes.len(), |i| rel + i + 1);
            let mut sp = Splitter::resumed(base);
            while at < bytes.len() {
                let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i + 1);
                if let Some(b) = sp.line(&bytes[at..end], base + at) {
                    cuts.push(b - base);
                }
                at = end;
            }
        }
        cuts.push(bytes.len());
        let mut line = self.cur_line;
        let mut out = Vec::new();
        for w in cuts.windows(2) {
            let piece = bytes[w[0]..w[1]].to_vec();
            let lines = memchr::memchr_iter(b'\n', &piece).count();
            out.push(self.emit(piece, base + w[0], line, ChunkKind::Native));
            line += lines;
        }
        self.pending.extend(out);
        self.pending.pop_front()
    }

    /// The next game of a Gravon file read whole: one chunk a `<game>` element, so each game
    /// is reported whatever happens to its neighbours, and judged like a native game.
    fn next_gravon(&mut self) -> Option<Chunk> {
        let (start, bytes) = self.next_piece()?;
        let (line, column, column_bytes) = self.advance_to(start);
        let mut c = self.emit(bytes, start, line, ChunkKind::Gravon);
        (c.column, c.column_bytes) = (column, column_bytes);
        Some(c)
    }

    /// The start and bytes of the next piece of a file read whole (Gravon, DhtmlXQ); `None`
    /// after the last, and the reader is done.
    fn next_piece(&mut self) -> Option<(usize, Vec<u8>)> {
        let (ReaderState::Gravon(all, pieces, next) | ReaderState::DhtmlXq(all, pieces, next)) =
            &mut self.state
        else {
            return None;
        };
        let Some(&(start, end)) = pieces.get(*next) else {
            self.state = ReaderState::Done;
            return None;
        };
        *next += 1;
        Some((start, all[start..end].to_vec()))
    }

    /// The next block of a DhtmlXQ file read whole: its bytes as they are (GB18030 text is
    /// no invalid UTF-8 here; the reader decodes it) and as text for excerpts.
    fn next_dhtmlxq(&mut self) -> Option<Chunk> {
        let (start, raw) = self.next_piece()?;
        let (line, column, column_bytes) = self.advance_to(start);
        let mut c = self.emit(raw.clone(), start, line, ChunkKind::DhtmlXq);
        c.byte_findings.clear();
        (c.column, c.column_bytes, c.raw) = (column, column_bytes, raw);
        Some(c)
    }

    /// Line, column (characters) and column (bytes) of byte `start` of a file read whole,
    /// counted on from the previous piece's start (linear over the whole file); `start`
    /// becomes that piece.
    fn advance_to(&mut self, start: usize) -> (usize, usize, usize) {
        let all = match &self.state {
            ReaderState::Gravon(all, ..) | ReaderState::DhtmlXq(all, ..) => all,
            _ => return (self.line, self.column, self.column_bytes),
        };
        let gap = &all[self.offset..start];
        let line = memchr::memchr_iter(b'\n', gap).count() + self.line;
        let (column, column_bytes) = match memchr::memrchr(b'\n', gap) {
            Some(i) => (char_count(&gap[i + 1..]), gap.len() - i - 1),
            None => (self.column + char_count(gap), self.column_bytes + gap.len()),
        };
        (self.offset, self.line) = (start, line);
        (self.column, self.column_bytes) = (column, column_bytes);
        (line, column, column_bytes)
    }

    /// Reads a file that holds DhtmlXQ blocks, or a web page that may (its record can lie
    /// past the first bytes looked at), whole; a page without one is unreadable, saying so.
    fn start_dhtmlxq(&mut self) -> Option<Chunk> {
        let mut all = Vec::new();
        if let Err(e) = self.reader.read_to_end(&mut all) {
            return Some(self.unreadable(e.to_string()));
        }
        let pieces = crate::record::dhtmlxq::blocks(&all);
        if pieces.is_empty() {
            return Some(self.unreadable(
                "markup (a web page or XML) with no DhtmlXQ record and no Gravon game in it".into(),
            ));
        }
        self.state = ReaderState::DhtmlXq(all, pieces, 0);
        self.next_dhtmlxq()
    }

    fn unreadable(&mut self, why: String) -> Chunk {
        self.state = ReaderState::Done;
        Chunk::special(self.name.clone(), ChunkKind::Unreadable(why))
    }
}

impl<R: BufRead> Iterator for ChunkReader<R> {
    type Item = Chunk;

    fn next(&mut self) -> Option<Chunk> {
        if let Some(p) = self.pending.pop_front() {
            return Some(p);
        }
        if self.state == ReaderState::Start {
            if let Some(first) = self.start_format() {
                return first;
            }
        }
        match self.state {
            ReaderState::Gravon(..) => self.next_gravon(),
            ReaderState::DhtmlXq(..) => self.next_dhtmlxq(),
            ReaderState::Done => None,
            _ => self.next_native(),
        }
    }
}

impl<R: BufRead> ChunkReader<R> {
    /// Knows the source's format by its first bytes: reads an XQF file, a Gravon file or a
    /// DhtmlXQ file (or web page) and returns its first chunk; `None` for a native log,
    /// whose games are then cut line by line ([`ChunkReader::next_native`]).
    fn start_format(&mut self) -> Option<Option<Chunk>> {
        let looked = self.head.take();
        let head = match &looked {
            Some(h) => h.as_slice(),
            None => match self.reader.fill_buf() {
                Ok(h) => h,
                Err(e) => return Some(Some(self.unreadable(e.to_string()))),
            },
        };
        if crate::record::xqf::looks_like_xqf(head) {
            let mut all = Vec::new();
            self.state = ReaderState::Done;
            if let Err(e) = self.reader.read_to_end(&mut all) {
                return Some(Some(self.unreadable(e.to_string())));
            }
            let mut c = self.emit(Vec::new(), 0, 0, ChunkKind::Xqf);
            c.raw = all;
            return Some(Some(c));
        }
        if looks_like_gravon(head) {
            let mut all = Vec::new();
            if let Err(e) = self.reader.read_to_end(&mut all) {
                return Some(Some(self.unreadable(e.to_string())));
            }
            let pieces = crate::record::gravon::game_pieces(&all);
            self.state = ReaderState::Gravon(all, pieces, 0);
            return Some(self.next_gravon());
        }
        if crate::record::dhtmlxq::looks_like_dhtmlxq(head) || looks_like_markup(head) {
            return Some(self.start_dhtmlxq());
        }
        self.state = ReaderState::Native;
        None
    }

    /// The next game of a native log: lines are read straight into the current game's
    /// buffer (one copy of each byte) until the splitter sees the next game start.
    fn next_native(&mut self) -> Option<Chunk> {
        loop {
            let line_start = self.cur.len();
            let n = match read_line(&mut self.reader, &mut self.cur) {
                Ok(n) => n,
                Err(e) => return Some(self.unreadable(e.to_string())),
            };
            if n == 0 {
                self.state = ReaderState::Done;
                if self.splitter.current_start().is_some() {
                    let bytes = std::mem::take(&mut self.cur);
                    if self.splitter.open_comment().is_some() {
                        return self.cut_unterminated(bytes);
                    }
                    return Some(self.emit(
                        bytes,
                        self.cur_offset,
                        self.cur_line,
                        ChunkKind::Native,
                    ));
                }
                if self.index == 0 {
                    let mut c = Chunk::special(self.name.clone(), ChunkKind::Empty);
                    c.offset = self.offset;
                    return Some(c);
                }
                return None;
            }
            let had_start = self.splitter.current_start().is_some();
            let boundary = self.splitter.line(&self.cur[line_start..], self.offset);
            let line_here = self.line;
            let offset_here = self.offset;
            self.offset += n;
            if self.cur.last() == Some(&b'\n') {
                self.line += 1;
            }
            if boundary.is_some() {
                // The next game's buffer starts as large as this game (up to 64 KB): games
                // in one archive are alike in size, so most are read without a
                // reallocation, and one huge game does not make every later buffer huge.
                let mut next = Vec::with_capacity(self.cur.len().min(1 << 16));
                next.extend_from_slice(&self.cur[line_start..]);
                self.cur.truncate(line_start);
                let done = std::mem::replace(&mut self.cur, next);
                let chunk = self.emit(done, self.cur_offset, self.cur_line, ChunkKind::Native);
                self.cur_offset = offset_here;
                self.cur_line = line_here;
                return Some(chunk);
            }
            if !had_start {
                if self.splitter.current_start().is_some() {
                    // the game starts on this line; blank lines before it belong to no game
                    self.cur.drain(..line_start);
                    self.cur_offset = offset_here;
                    self.cur_line = line_here;
                } else {
                    self.cur.truncate(line_start);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_games_with_offsets_and_lines() {
        let text = "\n[Game \"x\"]\n1. a2a3\n\n[Game \"y\"]\n1. b2b3 *\n";
        let c = chunks_of_text("t", text.as_bytes().to_vec());
        assert_eq!(c.len(), 2);
        assert_eq!((c[0].offset, c[0].line, c[0].first_index), (1, 1, 0));
        assert_eq!(&text[c[0].offset..c[0].offset + c[0].text.len()], c[0].text);
        assert_eq!((c[1].line, c[1].first_index), (4, 1));
        assert!(c[1].text.starts_with("[Game \"y\"]"));
    }

    #[test]
    fn empty_and_gravon() {
        let c = chunks_of_text("t", b"  \n\n".to_vec());
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].kind, ChunkKind::Empty);
        let c = chunks_of_text(
            "t",
            b"\xEF\xBB\xBF<?xml version=\"1.0\"?><stratego/>".to_vec(),
        );
        assert_eq!(c[0].kind, ChunkKind::Gravon);
    }

    #[test]
    fn invalid_utf8_keeps_offsets() {
        let (t, f) = repair_utf8(b"ab\xff\xfecd".to_vec(), 10);
        assert_eq!(t, "ab??cd");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].span, Span::new(12, 14));
    }
}
