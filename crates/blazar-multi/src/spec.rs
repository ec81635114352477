//! The value of `--devices`: which devices a run uses.

use std::fmt;

/// `all`, a list of GPU indices (`0,1`), or `sim:N` (`sim:N:lag`) simulated devices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceSpec {
    /// Every GPU of the host.
    All,
    /// These GPUs, by CUDA index, in this order (each once).
    Gpus(Vec<usize>),
    /// N simulated devices: CPU executors with memories of their own.
    Sim(usize),
    /// N simulated devices that run their queues only when something waits for them
    /// (`sim:N:lag`): the order between devices comes from the recorded events alone.
    SimLag(usize),
}

/// The most simulated devices a run may ask for.
pub const MAX_SIM: usize = 64;

impl DeviceSpec {
    pub fn parse(s: &str) -> Result<DeviceSpec, String> {
        let s = s.trim();
        if s == "all" {
            return Ok(DeviceSpec::All);
        }
        if let Some(n) = s.strip_prefix("sim:") {
            let (n, lag) = match n.strip_suffix(":lag") {
                Some(n) => (n, true),
                None => (n, false),
            };
            return match n.parse::<usize>() {
                Ok(n) if (1..=MAX_SIM).contains(&n) && lag => Ok(DeviceSpec::SimLag(n)),
                Ok(n) if (1..=MAX_SIM).contains(&n) => Ok(DeviceSpec::Sim(n)),
                _ => Err(format!(
                    "`sim:{n}`: expected a number of simulated devices from 1 to {MAX_SIM}"
                )),
            };
        }
        let mut ids = Vec::new();
        for part in s.split(',') {
            let id: usize = part.trim().parse().map_err(|_| {
                format!("expected `all`, `sim:N` or GPU indices such as `0,1`, not `{s}`")
            })?;
            if ids.contains(&id) {
                return Err(format!("GPU {id} is named twice in `{s}`"));
            }
            ids.push(id);
        }
        Ok(DeviceSpec::Gpus(ids))
    }
}

impl fmt::Display for DeviceSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceSpec::All => write!(f, "all"),
            DeviceSpec::Sim(n) => write!(f, "sim:{n}"),
            DeviceSpec::SimLag(n) => write!(f, "sim:{n}:lag"),
            DeviceSpec::Gpus(ids) => {
                let ids: Vec<String> = ids.iter().map(|i| i.to_string()).collect();
                write!(f, "{}", ids.join(","))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        assert_eq!(DeviceSpec::parse("all"), Ok(DeviceSpec::All));
        assert_eq!(DeviceSpec::parse("sim:3"), Ok(DeviceSpec::Sim(3)));
        assert_eq!(DeviceSpec::parse("0,1"), Ok(DeviceSpec::Gpus(vec![0, 1])));
        assert_eq!(DeviceSpec::parse("1"), Ok(DeviceSpec::Gpus(vec![1])));
        assert_eq!(DeviceSpec::parse("sim:2").unwrap().to_string(), "sim:2");
        assert_eq!(DeviceSpec::parse("sim:2:lag"), Ok(DeviceSpec::SimLag(2)));
        assert_eq!(
            DeviceSpec::parse("sim:3:lag").unwrap().to_string(),
            "sim:3:lag"
        );
    }

    #[test]
    fn rejects_bad_forms_with_a_reason() {
        assert!(DeviceSpec::parse("sim:0")
            .unwrap_err()
            .contains("from 1 to"));
        assert!(DeviceSpec::parse("gpu")
            .unwrap_err()
            .contains("expected `all`"));
        assert!(DeviceSpec::parse("1,1").unwrap_err().contains("twice"));
    }
}
