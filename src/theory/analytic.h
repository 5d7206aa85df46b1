/* analytic.h - closed-form throughput models to set beside the emulator.
 *
 * The models an emulator of Ethernet is usually set beside (Metcalfe and
 * Boggs 1976; the textbook 1/(1 + k a) family; ALOHA; Kleinrock and Tobagi
 * 1975; slotted non-persistent CSMA/CD), each with the assumptions of its
 * source, cited at each function below; they are reference curves, not
 * predictions of an 802.3 MAC (no model here has BEB, capture or a finite
 * population under Poisson load). Pure functions of their arguments: no
 * state, no I/O, no allocation. Lengths are in bit times; G is the offered
 * load in frames per frame time (all attempts, Poisson), a the largest
 * one-way propagation delay over the frame time, b the time from collision
 * detection to the end of the jam over the frame time. Arguments out of a
 * model's domain (q < 1, negative G) give NaN.
 */
#ifndef CSMACD_ANALYTIC_H
#define CSMACD_ANALYTIC_H

/* Metcalfe and Boggs (CACM 1976): q continuously queued stations, each
 * transmitting in a contention slot with probability 1/q. q is real so the
 * curve can be drawn through non-integer N; q = 1 gives A = 1, W = 0. */
double analytic_mb_acquisition(double q);   /* A = (1 - 1/q)^(q - 1) */
double analytic_mb_wasted_slots(double q);  /* W = (1 - A) / A */
/* E = P / (P + W T), P = frame_bits, T = slot_bits (M&B's efficiency). */
double analytic_mb_efficiency(double q, double frame_bits, double slot_bits);

/* Metcalfe and Boggs generalised to what a frame costs on an 802.3 wire
 * (not part of the 1976 paper): each success occupies wire_bits (the frame,
 * carrier-extended to slotTime at 1 Gb/s) plus overhead_bits (preamble,
 * SFD and the inter-frame gap), each contention slot slot_bits; only
 * frame_bits count as throughput:
 *     S = frame_bits / (wire_bits + overhead_bits + W(q) * slot_bits).
 * With q = 1 this is exactly one saturated station's throughput, e.g.
 * 12144 / (12144 + 160) for 1518-byte frames. */
typedef struct analytic_mb_costs {
    double frame_bits;    /* DA through FCS */
    double wire_bits;     /* frame_bits, or slotTime if extended */
    double overhead_bits; /* preamble + SFD + inter-frame gap */
    double slot_bits;     /* slotTime */
} analytic_mb_costs;
double analytic_mb_throughput(double q, const analytic_mb_costs *c);

/* ALOHA (Abramson 1970; slotted, Roberts 1975): pure S = G e^{-2G},
 * slotted S = G e^{-G}. */
double analytic_aloha_pure(double g);
double analytic_aloha_slotted(double g);

/* Kleinrock and Tobagi (1975) CSMA, infinite population, no collision
 * detection (a collided frame occupies the channel for its full length). */
double analytic_csma_nonpersistent(double g, double a);
double analytic_csma_slotted_nonpersistent(double g, double a);
double analytic_csma_1persistent(double g, double a);
double analytic_csma_slotted_1persistent(double g, double a);

/* Slotted non-persistent CSMA/CD, the form attributed to Tobagi and Hunt
 * (Computer Networks 4(5), 1980), derived as a renewal process: time in
 * mini-slots of length a; a station with a frame transmits at the next
 * mini-slot if the channel is idle, else reschedules at random
 * (non-persistent); Poisson attempts at rate G per frame time. A success
 * holds the channel 1 + a, a collision 2a + b (a to detect, b to abort and
 * jam, a to clear), an idle period is geometric in mini-slots. With
 * x = e^{-aG} and y = aG x:
 *     S = y / (y + b (1 - x - y) + a (2 - x - y)).
 * b is the time from detection to the end of the jam over the frame time
 * (802.3: jamSize / frame bits). b = 1 - a gives slotted non-persistent
 * CSMA. Domain: a > 0, b >= 0, G >= 0. */
double analytic_csmacd_slotted_nonpersistent(double g, double a, double b);

/* The textbook family 1 / (1 + k a): k = 5 (Kurose and Ross), 2e
 * (Tanenbaum), 1 + 2e (Leon-Garcia), 2e - 1 (Modiano), 2(e - 1) (Lam). */
double analytic_efficiency_ka(double a, double k);

#endif
