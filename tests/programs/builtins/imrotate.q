% imrotate: counter-clockwise turns about the image centre, nearest (the default) or
% bilinear, zeros from outside the image; "loose" (the default) fits the whole turned
% image, "crop" keeps the size; cubes turn channel by channel.
% Reference (SciPy): scipy.ndimage.rotate(A, angle, reshape=(bbox == 'loose'),
% order=0 or 1, mode='grid-constant', cval=0, prefilter=False).
% ==
% options { --double }
% stdout {
% [ [4,8,12],
%   [3,7,11],
%   [2,6,10],
%   [1,5,9] ]
% [ [0,0,0.937822,1.947441,0],
%   [0.169873,1.352886,3.535898,6.401924,2.287187],
%   [0.767949,3.633975,6.5,9.366025,9.21539],
%   [1.196152,6.598076,9.464102,6.888784,1.571797],
%   [0,4.381743,2.545517,0,0] ]
% [ [2.464878,2.613403,2.336919,1.952422],
%   [7.142582,6.714194,6.285806,5.857418],
%   [5.162182,9.223946,10.386597,7.264854] ]
% [ [0,0,0,4,0],
%   [0,2,3,8,0],
%   [1,6,7,11,12],
%   [0,5,10,11,0],
%   [0,9,0,0,0] ]
% [ [12,11,10,9],
%   [8,7,6,5],
%   [4,3,2,1] ]
% [4,3,2] 1
% }
function y = r6(x)
    y = round(x * 1e6) / 1e6
endfunction
A = reshape(1..12, [3, 4])
print imrotate(A, 90)
print r6(imrotate(A, 30, "bilinear"))
print r6(imrotate(A, -20, "bilinear", "crop"))
print imrotate(A, 30)
print imrotate(A, 180, "nearest", "crop")
C = zeros(3, 4, 2)
C[:, :, 0] = A
C[:, :, 1] = -A
R = imrotate(C, 90)
print size(R), " ", all(R[:, :, 1] == -imrotate(A, 90))
