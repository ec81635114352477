% steerable.q: the frequency-domain steerable pyramid. steerable_forward gives the
% highpass residual, J levels of K real oriented bands and the lowpass residual;
% steerable_inverse reconstructs the image exactly (to rounding) for any J and K, also
% through the operators of build_steerable.
% Reference: NumPy 2.4.6, an independent implementation of the definition in the
% module's header (np.fft.fft2, fftfreq grids, the central half taken with
% np.fft.fftshift / ifftshift as pyrtools does) on the 32x32 image below, J = 2, K = 4:
% sums of squares highpass 15169.285, bands[0][0] 1932.054, bands[0][1] 2430.0411,
% bands[1][3] 2889.787, lowpass 2912300.7; bands[0][1][3, 5] = 0.85539685,
% lowpass[2, 3] = 114.75135.
% ==
% tolerance { 1e-4 }
% stdout {
% [32,32] 2 [16,16] [8,8] 4
% 15169.285 1932.054 2430.0411 2889.787 2912300.7
% 0.85539685 114.75135
% 1
% 1 1 1
% }
import "steerable.q"
x = zeros(32, 32)
for i = 0..31
    for j = 0..31
        x[i, j] = mod(7 * i * i + 3 * j + i * j, 17) + (i > 12 && j > 8 ? 10 : 0)
    end
end
p = steerable_forward(x, 2, 4)
print size(p.highpass), " ", numel(p.bands), " ", size(p.bands[1][2]), " ", size(p.lowpass), _
    " ", numel(p.bands[0])
e = [sum(p.highpass .^ 2), sum(p.bands[0][0] .^ 2), sum(p.bands[0][1] .^ 2), _
    sum(p.bands[1][3] .^ 2), sum(p.lowpass .^ 2)]
print e[0], " ", e[1], " ", e[2], " ", e[3], " ", e[4]
print p.bands[0][1][3, 5], " ", p.lowpass[2, 3]
print max(abs(steerable_inverse(p) - x)) < 1e-3
[S, S_H] = build_steerable(3, 2)
z = x[0..15, :]
ok2 = max(abs(S_H(S(z)) - z)) < 1e-3
ok1 = max(abs(steerable_inverse(steerable_forward(z, 1, 1)) - z)) < 1e-3
ok6 = max(abs(steerable_inverse(steerable_forward(x, 3, 6)) - x)) < 1e-3
print ok2, " ", ok1, " ", ok6
