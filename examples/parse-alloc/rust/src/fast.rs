//! parse-alloc, fixed version: find the separating spaces and return
//! slices of the line. No allocation.

use crate::{lines, parse_status, Summary};

/// One parsed line, borrowing from it.
#[derive(Debug)]
pub struct Entry<'a> {
    pub timestamp: &'a str,
    pub level: &'a str,
    pub component: &'a str,
    pub message: &'a str,
    pub status: u32,
}

/// Parses one line, or returns `None` when it is malformed.
#[inline(never)]
pub fn parse(line: &str) -> Option<Entry<'_>> {
    let mut it = line.splitn(4, ' ');
    let (timestamp, level, component, rest) = (it.next()?, it.next()?, it.next()?, it.next()?);
    if timestamp.is_empty() || level.is_empty() || component.is_empty() {
        return None;
    }
    let (message, status) = rest.rsplit_once(' ')?;
    Some(Entry {
        timestamp,
        level,
        component,
        message,
        status: parse_status(status)?,
    })
}

/// Summarizes every line of `log`.
#[inline(never)]
pub fn summarize(log: &str) -> Summary {
    let mut s = Summary::default();
    for line in lines(log) {
        s.lines += 1;
        match parse(line) {
            None => s.malformed += 1,
            Some(e) => s.add(e.level, e.component, e.message, e.status),
        }
    }
    s
}
