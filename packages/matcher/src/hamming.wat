;; Brute-force nearest neighbours of 256-bit binary descriptors (ORB) under the Hamming distance, with WebAssembly
;; SIMD: xor, i8x16.popcnt and widening pairwise adds, about 3x the plain JS SWAR loop (README "Decisions").
;; Assembled to hamming.wasm by `npm run build:wasm -w @giftlens/matcher`; a unit test keeps the two in step.
(module
  (memory (export "memory") 1)

  ;; For each of the nq query descriptors at $q (32 bytes each), scans the nr reference descriptors at $r and writes
  ;; 5 x i32 to $out: index of the nearest, its distance, index of the second nearest, its distance, and the third
  ;; smallest distance. Distances start at 2^20 and indices at -1 when there are fewer references.
  (func (export "nearest3") (param $q i32) (param $nq i32) (param $r i32) (param $nr i32) (param $out i32)
    (local $qend i32) (local $rend i32) (local $p i32) (local $j i32)
    (local $qa v128) (local $qb v128) (local $s v128)
    (local $d i32) (local $d1 i32) (local $d2 i32) (local $d3 i32) (local $b1 i32) (local $b2 i32)
    (local.set $qend (i32.add (local.get $q) (i32.shl (local.get $nq) (i32.const 5))))
    (local.set $rend (i32.add (local.get $r) (i32.shl (local.get $nr) (i32.const 5))))
    (block $done
      (loop $queries
        (br_if $done (i32.ge_u (local.get $q) (local.get $qend)))
        (local.set $qa (v128.load (local.get $q)))
        (local.set $qb (v128.load offset=16 (local.get $q)))
        (local.set $d1 (i32.const 1048576))
        (local.set $d2 (i32.const 1048576))
        (local.set $d3 (i32.const 1048576))
        (local.set $b1 (i32.const -1))
        (local.set $b2 (i32.const -1))
        (local.set $p (local.get $r))
        (local.set $j (i32.const 0))
        (block $refsDone
          (loop $refs
            (br_if $refsDone (i32.ge_u (local.get $p) (local.get $rend)))
            ;; per byte lane: bits differing in bytes k and k+16 (<= 16), then summed to 4 x i32
            (local.set $s
              (i32x4.extadd_pairwise_i16x8_u
                (i16x8.extadd_pairwise_i8x16_u
                  (i8x16.add
                    (i8x16.popcnt (v128.xor (v128.load (local.get $p)) (local.get $qa)))
                    (i8x16.popcnt (v128.xor (v128.load offset=16 (local.get $p)) (local.get $qb)))))))
            (local.set $s
              (i32x4.add (local.get $s)
                (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $s) (local.get $s))))
            (local.set $d (i32.add (i32x4.extract_lane 0 (local.get $s)) (i32x4.extract_lane 1 (local.get $s))))
            (if (i32.lt_u (local.get $d) (local.get $d3))
              (then
                (if (i32.lt_u (local.get $d) (local.get $d2))
                  (then
                    (local.set $d3 (local.get $d2))
                    (if (i32.lt_u (local.get $d) (local.get $d1))
                      (then
                        (local.set $d2 (local.get $d1))
                        (local.set $b2 (local.get $b1))
                        (local.set $d1 (local.get $d))
                        (local.set $b1 (local.get $j)))
                      (else
                        (local.set $d2 (local.get $d))
                        (local.set $b2 (local.get $j)))))
                  (else
                    (local.set $d3 (local.get $d))))))
            (local.set $p (i32.add (local.get $p) (i32.const 32)))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $refs)))
        (i32.store (local.get $out) (local.get $b1))
        (i32.store offset=4 (local.get $out) (local.get $d1))
        (i32.store offset=8 (local.get $out) (local.get $b2))
        (i32.store offset=12 (local.get $out) (local.get $d2))
        (i32.store offset=16 (local.get $out) (local.get $d3))
        (local.set $out (i32.add (local.get $out) (i32.const 20)))
        (local.set $q (i32.add (local.get $q) (i32.const 32)))
        (br $queries)))))
