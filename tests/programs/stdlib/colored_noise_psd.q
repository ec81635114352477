% colored_noise.q: generate_psd samples a psd on the DFT grid (cycles per sample in
% [-1/2, 1/2)) and scales it to the variance asked for; centered = 1 moves the zero
% frequency to the middle; cgn_filter colours a given white field; cgn_rand makes
% noise of that variance (a statistical check on 2 x 128 x 128 samples), one channel
% per slice of a cube size.
% Reference: NumPy, with np.fft.fftfreq for the grid, np.fft.fftshift, and
% real(ifft2(sqrt(PS) * fft2(w))) for the filtering.
% ==
% tolerance { 1e-4 }
% stdout {
% [1.28782,1.60978,2.32165,3.17089] [5.46377,4.82933,4.31949,3.98237]
% [0.965866,0,0.965866]
% [-4.38552,3.64972,-0.772952,-3.8172] [-6.09962,3.94255,0.735787,-2.67806]
% [128,128,2] 1 1
% 1
% }
import "colored_noise.q"
PS = generate_psd([6, 8], psd_ct_ramp_spectrum_noise, 3, 0)
print PS[1, 0..3], " ", PS[3, 4..7]
C = generate_psd([6, 8], psd_ct_ramp_spectrum_noise, 3, 1)
print C[3, 3..5]
w = zeros(6, 8)
for i = 0..5
    for j = 0..7
        w[i, j] = mod(3 * i + 5 * j, 7) - 3
    end
end
n = cgn_filter(w, PS)
print n[0, 0..3], " ", n[5, 4..7]
P2 = generate_psd([128, 128], psd_ct_ramp_spectrum_noise, 4)
g = cgn_rand([128, 128, 2], P2)
print size(g), " ", abs(mean(g[:, :, 0] .^ 2) - 4) < 0.4, " ", abs(mean(g[:, :, 1] .^ 2) - 4) < 0.4
flat = cgn_rand([64, 64], generate_psd([64, 64], (u, v) -> ones(size(u))))
print abs(mean(flat .^ 2) - 1) < 0.15
