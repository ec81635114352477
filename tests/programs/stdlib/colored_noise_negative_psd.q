% A power spectral density is never negative.
% ==
% error: <blazar>/colored_noise\.q:[0-9]+:[0-9]+: error: generate_psd: a power spectral density cannot be negative
import "colored_noise.q"
PS = generate_psd([4, 4], (u, v) -> u)
