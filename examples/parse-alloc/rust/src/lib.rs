//! parse-alloc: parse log lines of the form
//!
//! ```text
//! TIMESTAMP LEVEL COMPONENT MESSAGE STATUS
//! ```
//!
//! Fields are separated by single spaces. TIMESTAMP, LEVEL and COMPONENT
//! are the first three fields and must not be empty. STATUS is the last
//! field: 1 to 9 decimal digits. MESSAGE is everything between them, and
//! may contain spaces or be empty. Anything else is malformed.
//!
//! `slow` returns owned `String`s; `fast` returns `&str` slices of the
//! line. Both summarize a log to the same `Summary`, and the driver prints
//! the same lines as the C version.

pub mod fast;
pub mod slow;

/// What both versions compute over a log.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Summary {
    pub lines: u64,
    pub malformed: u64,
    pub debug: u64,
    pub info: u64,
    pub warn: u64,
    pub error: u64,
    pub other_level: u64,
    /// Lines with STATUS >= 500.
    pub server_errors: u64,
    pub message_bytes: u64,
    /// A hash of COMPONENT over the ERROR lines.
    pub error_components: u64,
}

impl Summary {
    /// Counts one well-formed entry.
    pub fn add(&mut self, level: &str, component: &str, message: &str, status: u32) {
        match level {
            "DEBUG" => self.debug += 1,
            "INFO" => self.info += 1,
            "WARN" => self.warn += 1,
            "ERROR" => {
                self.error += 1;
                for b in component.bytes() {
                    self.error_components = self
                        .error_components
                        .wrapping_mul(131)
                        .wrapping_add(b as u64);
                }
            }
            _ => self.other_level += 1,
        }
        self.server_errors += (status >= 500) as u64;
        self.message_bytes += message.len() as u64;
    }
}

/// Parses STATUS: 1 to 9 ASCII digits.
pub fn parse_status(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Splits `log` into lines at '\n'; a final line without one counts too.
pub fn lines(log: &str) -> impl Iterator<Item = &str> {
    log.strip_suffix('\n')
        .unwrap_or(log)
        .split('\n')
        .filter(move |_| !log.is_empty())
}

/// xorshift64, the same generator as the C version.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        (x >> 32) as u32
    }
}

const LINES: u32 = 20000;

/// Writes LINES log lines, about 1 in 50 of them malformed.
#[inline(never)]
fn make_log() -> String {
    use std::fmt::Write;
    const LEVEL: [&str; 6] = ["DEBUG", "INFO", "INFO", "INFO", "WARN", "ERROR"];
    const COMP: [&str; 5] = ["db", "http", "cache", "auth", "scheduler"];
    const MSG: [&str; 6] = [
        "request served",
        "connection reset by peer",
        "slow query on table users",
        "token expired",
        "retrying in 5 s",
        "ok",
    ];
    const STATUS: [u32; 8] = [200, 200, 200, 204, 301, 404, 500, 503];
    let mut rng = Rng(0x9e3779b97f4a7c15);
    let mut log = String::with_capacity(LINES as usize * 128);
    for k in 0..LINES {
        let ms = rng.next() % 1000;
        let lv = LEVEL[(rng.next() % 6) as usize];
        let co = COMP[(rng.next() % 5) as usize];
        let me = MSG[(rng.next() % 6) as usize];
        let st = STATUS[(rng.next() % 8) as usize];
        if rng.next() % 50 == 0 {
            log.push_str(if k % 2 == 1 {
                "truncated line"
            } else {
                "2026-11-30T09:00:00Z INFO db ok OK"
            });
            log.push('\n');
        } else {
            let _ = writeln!(
                log,
                "2026-11-30T{:02}:{:02}:{:02}.{:03}Z {lv} {co} {me} {st}",
                k / 3600 % 24,
                k / 60 % 60,
                k % 60,
                ms
            );
        }
    }
    log
}

/// Runs the workload with `summarize`; returns the process exit status.
pub fn main(summarize: fn(&str) -> Summary) -> i32 {
    let passes: i64 = match std::env::args().nth(1) {
        None => 150,
        Some(s) => s.parse().unwrap_or(0),
    };
    if passes <= 0 {
        eprintln!("usage: before [PASSES]");
        return 2;
    }
    let log = make_log();
    let mut s = Summary::default();
    let mut lines = 0;
    for _ in 0..passes {
        s = summarize(&log);
        lines += s.lines;
    }
    println!(
        "parse-alloc: {} lines, {} malformed, DEBUG {} INFO {} WARN {} ERROR {} other {}",
        s.lines, s.malformed, s.debug, s.info, s.warn, s.error, s.other_level
    );
    println!(
        "parse-alloc: {} server errors, {} message bytes, components {:016x}; {passes} passes",
        s.server_errors, s.message_bytes, s.error_components
    );
    if lines == s.lines * passes as u64 {
        0
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::{fast, slow};

    fn same(line: &str, want_message: Option<&str>) {
        let s = slow::parse(line);
        let f = fast::parse(line);
        match (&s, &f) {
            (None, None) => assert!(want_message.is_none(), "{line:?} should parse"),
            (Some(s), Some(f)) => {
                assert_eq!(
                    (
                        s.timestamp.as_str(),
                        s.level.as_str(),
                        s.component.as_str(),
                        s.message.as_str(),
                        s.status
                    ),
                    (f.timestamp, f.level, f.component, f.message, f.status),
                    "{line:?}"
                );
                assert_eq!(Some(s.message.as_str()), want_message, "{line:?}");
            }
            _ => panic!("slow and fast disagree on {line:?}: {s:?} {f:?}"),
        }
    }

    #[test]
    fn valid_lines() {
        same("2026-11-30T09:00:00Z INFO db ok 200", Some("ok"));
        same(
            "t ERROR http upstream timed out 504",
            Some("upstream timed out"),
        );
        same("t INFO db  200", Some(""));
        same("t INFO db    200", Some("  "));
        same("t INFO db m 0", Some("m"));
        same("t INFO db m 999999999", Some("m"));
        same("t INFO db café \u{fffd} 200", Some("café \u{fffd}"));
    }

    #[test]
    fn malformed_lines() {
        for line in [
            "",
            "t INFO db 200",
            "t INFO db msg OK",
            "t INFO db msg +200",
            "t INFO db msg 1234567890",
            "t INFO db msg ",
            " INFO db msg 200",
            "t  db msg 200",
            "t INFO  msg 200",
            "t\tINFO db msg 200",
            "t INFO db msg ٣٠٠",
        ] {
            same(line, None);
        }
    }

    #[test]
    fn summaries_agree() {
        let log = "t1 INFO db ok 200\nt2 ERROR http upstream timed out 504\nbroken\n\n\
                   t3 WARN cache evicted 3 keys 200\nt4 NOTICE x y 1\nt5 ERROR auth  500";
        let a = slow::summarize(log);
        let b = fast::summarize(log);
        assert_eq!(a, b);
        assert_eq!(
            (
                a.lines,
                a.malformed,
                a.error,
                a.other_level,
                a.server_errors
            ),
            (7, 2, 2, 1, 2)
        );
        assert_eq!(slow::summarize(""), fast::summarize(""));
        assert_eq!(slow::summarize("\n").lines, 1);
    }
}
