//! Placement: which device runs a launch.
//!
//! A launch goes where its data already is: the device holding the most bytes of its
//! arguments' current elements (ties to the device that has been busy the least). A
//! launch none of whose arguments lives on a device yet (fresh host data, or only
//! results it will write) is independent of the work queued so far. When it is large
//! enough to keep a device busy for longer than the host takes to queue it (`spread`),
//! such launches go round the devices in turn, so independent pipelines spread over all
//! of them; a small one goes where the previous launch went, so a program's small work
//! stays on one device and its arrays never cross between devices (on a GPU the host's
//! launch rate, not the device, bounds small work: a second device would only add
//! copies). A pinned device (see [`MultiBackend::pin`](crate::MultiBackend::pin))
//! overrides all of it.

use std::time::Duration;

/// The state of the policy between launches.
#[derive(Clone, Debug, Default)]
pub struct Placer {
    /// The device the next large independent launch goes to.
    next: usize,
    /// The device the last launch went to.
    last: usize,
}

impl Placer {
    /// The device for a launch: `resident[d]` is how many bytes of its arguments'
    /// current elements device `d` holds, `busy[d]` how long `d` has run kernels;
    /// `spread`: an independent launch may start a new device.
    pub fn choose(
        &mut self,
        resident: &[usize],
        busy: &[Duration],
        pinned: Option<usize>,
        spread: bool,
    ) -> usize {
        let n = resident.len().max(1);
        let d = self.decide(resident, busy, pinned.filter(|&p| p < n), spread, n);
        self.last = d;
        d
    }

    fn decide(
        &mut self,
        resident: &[usize],
        busy: &[Duration],
        pinned: Option<usize>,
        spread: bool,
        n: usize,
    ) -> usize {
        if let Some(p) = pinned {
            return p;
        }
        let best = (0..resident.len())
            .filter(|&d| resident[d] > 0)
            .max_by(|&a, &b| {
                resident[a]
                    .cmp(&resident[b])
                    .then_with(|| busy[b].cmp(&busy[a]))
                    .then_with(|| b.cmp(&a))
            });
        match best {
            Some(d) => d,
            None if spread => {
                let d = self.next % n;
                self.next = (d + 1) % n;
                d
            }
            None => self.last % n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const Z: Duration = Duration::ZERO;

    #[test]
    fn data_locality_wins() {
        let mut p = Placer::default();
        assert_eq!(p.choose(&[0, 400, 100], &[Z; 3], None, true), 1);
        assert_eq!(p.choose(&[800, 400, 100], &[Z; 3], None, true), 0);
    }

    #[test]
    fn ties_go_to_the_least_busy_device() {
        let mut p = Placer::default();
        let busy = [Duration::from_millis(5), Duration::from_millis(1)];
        assert_eq!(p.choose(&[100, 100], &busy, None, true), 1);
    }

    #[test]
    fn independent_launches_go_round_the_devices() {
        let mut p = Placer::default();
        let got: Vec<usize> = (0..5)
            .map(|_| p.choose(&[0, 0, 0], &[Z; 3], None, true))
            .collect();
        assert_eq!(got, vec![0, 1, 2, 0, 1]);
    }

    #[test]
    fn small_independent_launches_stay_where_the_last_launch_went() {
        let mut p = Placer::default();
        assert_eq!(p.choose(&[0, 0, 0], &[Z; 3], None, false), 0);
        assert_eq!(p.choose(&[0, 0, 0], &[Z; 3], None, false), 0);
        // A launch whose data is on device 2 goes there; the small ones follow it.
        assert_eq!(p.choose(&[0, 0, 64], &[Z; 3], None, false), 2);
        assert_eq!(p.choose(&[0, 0, 0], &[Z; 3], None, false), 2);
        // Large independent launches still take the devices in turn.
        assert_eq!(p.choose(&[0, 0, 0], &[Z; 3], None, true), 0);
        assert_eq!(p.choose(&[0, 0, 0], &[Z; 3], None, true), 1);
        assert_eq!(p.choose(&[0, 0, 0], &[Z; 3], None, false), 1);
    }

    #[test]
    fn a_pinned_device_overrides_locality() {
        let mut p = Placer::default();
        assert_eq!(p.choose(&[0, 400], &[Z; 2], Some(0), true), 0);
        assert_eq!(
            p.choose(&[0, 400], &[Z; 2], Some(7), true),
            1,
            "out of range: ignored"
        );
    }
}
