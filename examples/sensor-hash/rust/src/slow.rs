//! sensor-hash, slow version: a `HashMap` (SipHash on every reading) for a
//! key space of eight.

use std::collections::HashMap;

use crate::{SensorSet, Stats, NSENSORS};

#[derive(Default)]
pub struct Sensors {
    map: HashMap<i32, Stats>,
    rejected: u64,
}

impl Sensors {
    /// Records one reading; `Err(())` when `id` is not 0..7.
    #[inline(never)]
    pub fn record(&mut self, id: i32, value: i32) -> Result<(), ()> {
        if !(0..NSENSORS).contains(&id) {
            self.rejected += 1;
            return Err(());
        }
        self.map.entry(id).or_default().add(value);
        Ok(())
    }
}

impl SensorSet for Sensors {
    #[inline]
    fn add(&mut self, id: i32, value: i32) -> Result<(), ()> {
        self.record(id, value)
    }

    fn get(&self, id: i32) -> Option<Stats> {
        if !(0..NSENSORS).contains(&id) {
            return None;
        }
        Some(self.map.get(&id).copied().unwrap_or_default())
    }

    fn rejected(&self) -> u64 {
        self.rejected
    }
}
