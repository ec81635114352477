% imread's only option is "raw" (the stored samples in their integer type).
% ==
% error: imread_bad_option\.q:4:5: error: imread: the second argument must be "raw"
x = imread("imread_raw_fixture_gray16.png", "uint16")
