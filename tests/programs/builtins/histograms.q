% hist (n equal bins over min..max, or bins around given centres, the outer bins
% open-ended), histc (edges[k] <= x < edges[k+1]; the last bin counts x == edges[end])
% and imhist (bins over 0..255, each value to the nearest bin centre k*255/(n-1)).
% Reference (NumPy): np.histogram(y, bins=n, range=(min, max));
% np.histogram(y, bins=[-inf, midpoints of the centres, inf]);
% np.histogram(y, bins=edges + [inf]) with the last count replaced by sum(y == edges[-1]);
% np.bincount(I) (256 bins) and np.bincount(clip(floor(I / (255/3) + 0.5), 0, 3)).
% ==
% stdout {
% [3,1,1,2,0,0,2,0,0,2]
% [4,3,2,2]
% [4,3,4]
% [1,3,3,2]
% 256 [1,2,1,2,1,1] 8
% [4,0,2,2]
% }
y = [0.5, 1, 1, 2.2, 3, 3.9, 4, 7, 7, 9.5, 10]
print hist(y)
print hist(y, 4)
print hist(y, [1, 4, 8])
print histc(y, [0, 1, 3, 7])
I = [[0, 1, 1, 255], [128, 128, 3, 250]]
h = imhist(I)
print numel(h), " ", h[[0, 1, 3, 128, 250, 255]], " ", sum(h)
print imhist(uint8(I), 4)
