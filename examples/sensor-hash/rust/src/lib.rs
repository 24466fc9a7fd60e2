//! sensor-hash: keep count, sum, minimum and maximum of the readings of
//! eight sensors whose ids are 0 to 7. A reading with any other id is
//! rejected and counted, and changes nothing else.
//!
//! `slow::Sensors` keeps them in a `HashMap`, `fast::Sensors` in an array
//! of eight. The driver prints the same lines as the C version.

pub mod fast;
pub mod slow;

/// The number of sensors; their ids are 0 to NSENSORS - 1.
pub const NSENSORS: i32 = 8;

/// One sensor's statistics; `min` and `max` mean something when `count > 0`.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    pub count: u64,
    pub sum: i64,
    pub min: i32,
    pub max: i32,
}

impl Stats {
    /// Folds one reading in.
    #[inline]
    pub fn add(&mut self, value: i32) {
        if self.count == 0 || value < self.min {
            self.min = value;
        }
        if self.count == 0 || value > self.max {
            self.max = value;
        }
        self.count += 1;
        self.sum += value as i64;
    }
}

/// What both versions offer.
pub trait SensorSet: Default {
    /// Records one reading; `Err(())` when `id` is not 0..7.
    fn add(&mut self, id: i32, value: i32) -> Result<(), ()>;
    /// The statistics of sensor `id` (count 0 when it has none yet), or
    /// `None` when `id` is not 0..7.
    fn get(&self, id: i32) -> Option<Stats>;
    /// How many readings were rejected.
    fn rejected(&self) -> u64;
}

/// xorshift64, the same generator and seed as the C version.
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

/// Feeds `n` readings to a fresh set.
#[inline(never)]
fn feed<S: SensorSet>(n: i64) -> S {
    let mut s = S::default();
    let mut rng = Rng(0x853c49e6748fea9b);
    for _ in 0..n {
        let r = rng.next();
        // Sensor 6 is unplugged; about 1 reading in 100 has a bad id.
        let mut id = if r % 100 == 0 {
            ((r >> 8) % 20) as i32 - 6
        } else {
            ((r >> 8) % 7) as i32
        };
        if id == 6 {
            id = 7;
        }
        let _ = s.add(id, ((r >> 12) % 4001) as i32 - 2000);
    }
    s
}

/// Runs the workload with sensor set `S`; returns the process exit status.
pub fn main<S: SensorSet>() -> i32 {
    let n: i64 = match std::env::args().nth(1) {
        None => 60_000_000,
        Some(s) => s.parse().unwrap_or(0),
    };
    if n <= 0 {
        eprintln!("usage: before [READINGS]");
        return 2;
    }
    let s: S = feed(n);
    for id in 0..NSENSORS {
        let st = s.get(id).unwrap_or_default();
        if st.count == 0 {
            println!("sensor-hash: sensor {id}: no readings");
        } else {
            println!(
                "sensor-hash: sensor {id}: {} readings, sum {}, min {}, max {}",
                st.count, st.sum, st.min, st.max
            );
        }
    }
    println!("sensor-hash: {} readings rejected", s.rejected());
    0
}

#[cfg(test)]
mod tests {
    use super::{fast, slow, SensorSet, Stats};

    fn agree(a: &slow::Sensors, b: &fast::Sensors) {
        for id in -3..=10 {
            assert_eq!(a.get(id), b.get(id), "sensor {id}");
        }
        assert_eq!(a.rejected(), b.rejected());
    }

    #[test]
    fn good_and_bad_ids() {
        let mut a = slow::Sensors::default();
        let mut b = fast::Sensors::default();
        agree(&a, &b);
        let ids = [0, 7, 3, -1, 8, 3, i32::MIN, i32::MAX, 0, 5, 100];
        let vals = [5, -5, i32::MAX, 1, 2, i32::MIN, 3, 4, -7, 0, 9];
        for (&id, &v) in ids.iter().zip(vals.iter()) {
            assert_eq!(a.add(id, v), b.add(id, v), "add({id}, {v})");
        }
        agree(&a, &b);
        assert_eq!(a.rejected(), 5);
        assert_eq!(
            b.get(3),
            Some(Stats {
                count: 2,
                sum: -1,
                min: i32::MIN,
                max: i32::MAX
            })
        );
        assert_eq!(a.get(1), Some(Stats::default()));
        assert_eq!(a.get(8), None);
        assert_eq!(b.get(-1), None);
    }

    #[test]
    fn random_readings_agree() {
        let mut a = slow::Sensors::default();
        let mut b = fast::Sensors::default();
        let mut x: u32 = 12345;
        for _ in 0..100000 {
            x = x.wrapping_mul(1103515245).wrapping_add(12345);
            let id = ((x >> 16) % 12) as i32 - 2;
            let v = (x % 2001) as i32 - 1000;
            let _ = a.add(id, v);
            let _ = b.add(id, v);
        }
        agree(&a, &b);
    }
}
