;; ORB's descriptor stage (describe.ts) in WebAssembly: the blur of a pyramid level and the sampling of the rotated
;; pattern. The blur is a separable 7-tap float32 filter, SIMD, 4 pixels at a time (OpenCV.js, a scalar build, spent
;; half of ORB's time in it). Its sums are float32 as in OpenCV but in another order, so a pixel whose sum lies within
;; 0.0003 of a rounding tie is reported to the caller, which recomputes it in OpenCV's exact order. The sampling does
;; OpenCV's float32 arithmetic in its order, so it gives its bits. Assembled to orb.wasm by
;; `npm run build:wasm -w @giftlens/matcher`.
(module
  (memory (export "memory") 1)

  ;; Row pass: for rows y0..y1-1 of the w-wide u8 image at $in, columns 3..w-4, writes the float32 sums
  ;; k0*p(x) + k1*(p(x-1)+p(x+1)) + k2*(p(x-2)+p(x+2)) + k3*(p(x-3)+p(x+3)) at $rows (4 bytes a pixel).
  ;; Needs w >= 10 and 16 readable bytes past the image's end.
  (func (export "rows") (param $in i32) (param $w i32) (param $y0 i32) (param $y1 i32) (param $rows i32)
        (param $k0 f32) (param $k1 f32) (param $k2 f32) (param $k3 f32)
    (local $y i32) (local $x i32) (local $last i32) (local $v v128) (local $zero v128)
    (local $p0 v128) (local $p1 v128) (local $p2 v128) (local $p3 v128) (local $p4 v128) (local $p5 v128) (local $p6 v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local.set $zero (v128.const i32x4 0 0 0 0))
    (local.set $c0 (f32x4.splat (local.get $k0)))
    (local.set $c1 (f32x4.splat (local.get $k1)))
    (local.set $c2 (f32x4.splat (local.get $k2)))
    (local.set $c3 (f32x4.splat (local.get $k3)))
    (local.set $last (i32.sub (local.get $w) (i32.const 7)))
    (local.set $y (local.get $y0))
    (block $done
      (loop $row
        (br_if $done (i32.ge_s (local.get $y) (local.get $y1)))
        (local.set $x (i32.const 3))
        (block $rowDone
          (loop $group
            ;; the last group may overlap the one before it (x = w - 7): same values written twice
            (if (i32.gt_s (local.get $x) (local.get $last)) (then (local.set $x (local.get $last))))
            ;; bytes x-3 .. x+12 of the row; lanes d..d+3 of them are the pixels at offset d-3 of the 4 outputs
            (local.set $v (v128.load (i32.add (local.get $in) (i32.add (i32.mul (local.get $y) (local.get $w)) (i32.sub (local.get $x) (i32.const 3))))))
        (local.set $p0 (f32x4.convert_i32x4_u (i8x16.shuffle 0 16 16 16 1 16 16 16 2 16 16 16 3 16 16 16 (local.get $v) (local.get $zero))))
        (local.set $p1 (f32x4.convert_i32x4_u (i8x16.shuffle 1 16 16 16 2 16 16 16 3 16 16 16 4 16 16 16 (local.get $v) (local.get $zero))))
        (local.set $p2 (f32x4.convert_i32x4_u (i8x16.shuffle 2 16 16 16 3 16 16 16 4 16 16 16 5 16 16 16 (local.get $v) (local.get $zero))))
        (local.set $p3 (f32x4.convert_i32x4_u (i8x16.shuffle 3 16 16 16 4 16 16 16 5 16 16 16 6 16 16 16 (local.get $v) (local.get $zero))))
        (local.set $p4 (f32x4.convert_i32x4_u (i8x16.shuffle 4 16 16 16 5 16 16 16 6 16 16 16 7 16 16 16 (local.get $v) (local.get $zero))))
        (local.set $p5 (f32x4.convert_i32x4_u (i8x16.shuffle 5 16 16 16 6 16 16 16 7 16 16 16 8 16 16 16 (local.get $v) (local.get $zero))))
        (local.set $p6 (f32x4.convert_i32x4_u (i8x16.shuffle 6 16 16 16 7 16 16 16 8 16 16 16 9 16 16 16 (local.get $v) (local.get $zero))))
            (v128.store
              (i32.add (local.get $rows) (i32.shl (i32.add (i32.mul (local.get $y) (local.get $w)) (local.get $x)) (i32.const 2)))
              (f32x4.add
                (f32x4.add
                  (f32x4.mul (local.get $c0) (local.get $p3))
                  (f32x4.mul (local.get $c1) (f32x4.add (local.get $p2) (local.get $p4))))
                (f32x4.add
                  (f32x4.mul (local.get $c2) (f32x4.add (local.get $p1) (local.get $p5)))
                  (f32x4.mul (local.get $c3) (f32x4.add (local.get $p0) (local.get $p6))))))
            (br_if $rowDone (i32.ge_s (local.get $x) (local.get $last)))
            (local.set $x (i32.add (local.get $x) (i32.const 4)))
            (br $group)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $row))))

  ;; Column pass: for rows from..to-1 (3 <= from, to <= h-3), columns 3..w-4, the float32 sums of the row sums at
  ;; $rows, rounded half to even and saturated to u8 at $out (1 byte a pixel). A group of 4 pixels of which one lies
  ;; within 0.0003 of a tie is listed at $ties (its first pixel's index, i32); returns how many were listed.
  (func (export "cols") (param $rows i32) (param $w i32) (param $from i32) (param $to i32) (param $out i32) (param $ties i32)
        (param $k0 f32) (param $k1 f32) (param $k2 f32) (param $k3 f32) (result i32)
    (local $y i32) (local $x i32) (local $last i32) (local $st i32) (local $a i32) (local $i i32) (local $n i32)
    (local $s v128) (local $r v128) (local $near v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local.set $c0 (f32x4.splat (local.get $k0)))
    (local.set $c1 (f32x4.splat (local.get $k1)))
    (local.set $c2 (f32x4.splat (local.get $k2)))
    (local.set $c3 (f32x4.splat (local.get $k3)))
    (local.set $near (f32x4.splat (f32.const 0.4997)))
    (local.set $st (i32.shl (local.get $w) (i32.const 2)))
    (local.set $last (i32.sub (local.get $w) (i32.const 7)))
    (local.set $y (local.get $from))
    (block $done
      (loop $row
        (br_if $done (i32.ge_s (local.get $y) (local.get $to)))
        (local.set $x (i32.const 3))
        (block $rowDone
          (loop $group
            (if (i32.gt_s (local.get $x) (local.get $last)) (then (local.set $x (local.get $last))))
            (local.set $i (i32.add (i32.mul (local.get $y) (local.get $w)) (local.get $x)))
            (local.set $a (i32.add (local.get $rows) (i32.shl (local.get $i) (i32.const 2))))
            (local.set $s
              (f32x4.add
                (f32x4.add
                  (f32x4.mul (local.get $c0) (v128.load (local.get $a)))
                  (f32x4.mul (local.get $c1)
                    (f32x4.add (v128.load (i32.sub (local.get $a) (local.get $st))) (v128.load (i32.add (local.get $a) (local.get $st))))))
                (f32x4.add
                  (f32x4.mul (local.get $c2)
                    (f32x4.add
                      (v128.load (i32.sub (local.get $a) (i32.shl (local.get $st) (i32.const 1))))
                      (v128.load (i32.add (local.get $a) (i32.shl (local.get $st) (i32.const 1))))))
                  (f32x4.mul (local.get $c3)
                    (f32x4.add
                      (v128.load (i32.sub (local.get $a) (i32.mul (local.get $st) (i32.const 3))))
                      (v128.load (i32.add (local.get $a) (i32.mul (local.get $st) (i32.const 3)))))))))
            (local.set $r (f32x4.nearest (local.get $s)))
            (if (v128.any_true (f32x4.gt (f32x4.abs (f32x4.sub (local.get $s) (local.get $r))) (local.get $near)))
              (then
                (i32.store (i32.add (local.get $ties) (i32.shl (local.get $n) (i32.const 2))) (local.get $i))
                (local.set $n (i32.add (local.get $n) (i32.const 1)))))
            (local.set $r (i32x4.trunc_sat_f32x4_s (local.get $r)))
            (local.set $r (i8x16.narrow_i16x8_u (i16x8.narrow_i32x4_s (local.get $r) (local.get $r)) (local.get $r)))
            (v128.store32_lane 0 (i32.add (local.get $out) (local.get $i)) (local.get $r))
            (br_if $rowDone (i32.ge_s (local.get $x) (local.get $last)))
            (local.set $x (i32.add (local.get $x) (i32.const 4)))
            (br $group)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $row)))
    (local.get $n))
;; Descriptors: for each of $n keypoints at $kps (12 bytes: i32 address of its centre pixel in the blurred level,
  ;; f32 cos and sin of its angle), 32 bytes at $out: bit k of byte i set when the level's pixel at the first point
  ;; of pair 8i+k, rotated, is darker than at its second point. $pat holds the pattern as f32: 256 first points' x,
  ;; 256 second points' x, then the same 512 points' y. A point is rotated as OpenCV does it, x*cos - y*sin and
  ;; x*sin + y*cos in float32, rounded half to even; $w is the level's width; $scr: 2560 bytes of scratch.
  (func (export "describe") (param $kps i32) (param $n i32) (param $pat i32) (param $w i32) (param $out i32) (param $scr i32)
    (local $end i32) (local $c i32) (local $a v128) (local $b v128) (local $wv v128) (local $j i32)
    (local $px v128) (local $py v128) (local $g i32)
    (local.set $end (i32.add (local.get $kps) (i32.mul (local.get $n) (i32.const 12))))
    (local.set $wv (i32x4.splat (local.get $w)))
    ;; offsets at $scr (512 x i32), gathered pixels at $g (512 bytes)
    (local.set $g (i32.add (local.get $scr) (i32.const 2048)))
    (block $done
      (loop $kp
        (br_if $done (i32.ge_u (local.get $kps) (local.get $end)))
        (local.set $c (i32.load (local.get $kps)))
        (local.set $a (f32x4.splat (f32.load offset=4 (local.get $kps))))
        (local.set $b (f32x4.splat (f32.load offset=8 (local.get $kps))))
        (local.set $j (i32.const 0))
        (loop $offsets
          (local.set $px (v128.load (i32.add (local.get $pat) (local.get $j))))
          (local.set $py (v128.load offset=2048 (i32.add (local.get $pat) (local.get $j))))
          (v128.store (i32.add (local.get $scr) (local.get $j))
            (i32x4.add
              (i32x4.mul (local.get $wv)
                (i32x4.trunc_sat_f32x4_s (f32x4.nearest (f32x4.add (f32x4.mul (local.get $px) (local.get $b)) (f32x4.mul (local.get $py) (local.get $a))))))
              (i32x4.trunc_sat_f32x4_s (f32x4.nearest (f32x4.sub (f32x4.mul (local.get $px) (local.get $a)) (f32x4.mul (local.get $py) (local.get $b)))))))
          (local.set $j (i32.add (local.get $j) (i32.const 16)))
          (br_if $offsets (i32.lt_u (local.get $j) (i32.const 2048))))
        (local.set $j (i32.const 0))
        (loop $gather
          (i32.store8 (i32.add (local.get $g) (local.get $j))
            (i32.load8_u (i32.add (local.get $c) (i32.load (i32.add (local.get $scr) (i32.shl (local.get $j) (i32.const 2)))))))
          (local.set $j (i32.add (local.get $j) (i32.const 1)))
          (br_if $gather (i32.lt_u (local.get $j) (i32.const 512))))
        ;; 16 pairs at a time: first point darker than second, one bit each
        (local.set $j (i32.const 0))
        (loop $bits
          (i32.store16 (i32.add (local.get $out) (i32.shr_u (local.get $j) (i32.const 3)))
            (i8x16.bitmask
              (i8x16.lt_u
                (v128.load (i32.add (local.get $g) (local.get $j)))
                (v128.load offset=256 (i32.add (local.get $g) (local.get $j))))))
          (local.set $j (i32.add (local.get $j) (i32.const 16)))
          (br_if $bits (i32.lt_u (local.get $j) (i32.const 256))))
        (local.set $out (i32.add (local.get $out) (i32.const 32)))
        (local.set $kps (i32.add (local.get $kps) (i32.const 12)))
        (br $kp))))
)
