//! Placement: which device runs a launch.
//!
//! A launch goes where its data already is: the device holding the most bytes of its
//! arguments' current elements (ties to the device that has been busy the least). A
//! launch none of whose arguments lives on a device yet (fresh host data, or only
//! results it will write) is independent of the work queued so far: such launches go
//! round the devices in turn, so independent pipelines spread over all of them. A
//! pinned device (see [`MultiBackend::pin`](crate::MultiBackend::pin)) overrides both.

use std::time::Duration;

/// The state of the policy between launches.
#[derive(Clone, Debug, Default)]
pub struct Placer {
    next: usize,
}

impl Placer {
    /// The device for a launch: `resident[d]` is how many bytes of its arguments'
    /// current elements device `d` holds, `busy[d]` how long `d` has run kernels.
    pub fn choose(
        &mut self,
        resident: &[usize],
        busy: &[Duration],
        pinned: Option<usize>,
    ) -> usize {
        let n = resident.len().max(1);
        if let Some(p) = pinned.filter(|&p| p < n) {
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
            None => {
                let d = self.next % n;
                self.next = (d + 1) % n;
                d
            }
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
        assert_eq!(p.choose(&[0, 400, 100], &[Z; 3], None), 1);
        assert_eq!(p.choose(&[800, 400, 100], &[Z; 3], None), 0);
    }

    #[test]
    fn ties_go_to_the_least_busy_device() {
        let mut p = Placer::default();
        let busy = [Duration::from_millis(5), Duration::from_millis(1)];
        assert_eq!(p.choose(&[100, 100], &busy, None), 1);
    }

    #[test]
    fn independent_launches_go_round_the_devices() {
        let mut p = Placer::default();
        let got: Vec<usize> = (0..5)
            .map(|_| p.choose(&[0, 0, 0], &[Z; 3], None))
            .collect();
        assert_eq!(got, vec![0, 1, 2, 0, 1]);
    }

    #[test]
    fn a_pinned_device_overrides_locality() {
        let mut p = Placer::default();
        assert_eq!(p.choose(&[0, 400], &[Z; 2], Some(0)), 0);
        assert_eq!(
            p.choose(&[0, 400], &[Z; 2], Some(7)),
            1,
            "out of range: ignored"
        );
    }
}
