/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The elastic Hertz granular chain of bench_granular_chain.c built in Simbody 3.7,
 * for the side-by-side benchmark (bench/chain_side_by_side.py): n stainless steel
 * beads (chain_sensors.h: radius 2.38 mm, 0.45 g, E 193 GPa, nu 0.3) touching on
 * the x axis, the last against a wall at x = 0, the first struck by a striker
 * bead 10 um away at 1.77 m/s, F = K delta^(3/2) at every contact (K from the
 * materials, 4.8775e9 N/m^1.5 bead to bead, the wall a half-space). It computes
 * the forces of the sensor contacts every CHAIN_DT (CSV) and reports the wall
 * time, integrator steps, realizations and the memory high-water mark.
 *
 * Every body (the n beads and the striker) hangs from Ground on its own
 * mobilizer whose frame sits at the body's initial position: either a Slider
 * (one degree of freedom, x; the same physics as clink's chain, where central
 * impacts keep y and phi at zero exactly: no force ever acts across the axis
 * or about a centre) or a Planar joint (x, y and phi: the state clink
 * integrates, three coordinates per bead). The contacts are one custom force
 * element (Force::Custom) that reads the bodies' x in Ground, as a multibody
 * code reads positions, and applies +F / -F along x to the two bodies of each
 * contact (the wall contact to bead n alone). There are no events: Simbody
 * integrates the force max(0, delta)^(3/2) straight through the onsets, which
 * is smooth enough (continuous with its first derivative) for its error
 * control.
 *
 *   simbody_chain CSV N WINDOW_S INTEGRATOR ACCURACY MOBILIZER
 *     INTEGRATOR: rkm (Runge-Kutta-Merson), rkf (Runge-Kutta-Fehlberg), rk3,
 *                 rk2, verlet, cpodes-adams (Adams, functional iteration),
 *                 cpodes-bdf;  MOBILIZER: slider or planar
 * The last line of its output is a JSON object with the figures.
 */
#include "bench_clock.h" /* first: it sets _POSIX_C_SOURCE */

#include "chain_sensors.h"

#include "Simbody.h"

#include <sys/resource.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

using namespace SimTK;

namespace
{

/* the Hertz contacts of the chain: body 0 the striker, 1..n the beads */
class ChainContacts : public Force::Custom::Implementation
{
  public:
    ChainContacts(const std::vector<MobilizedBody> &bodies, int n)
        : bodies_(bodies), n_(n), kb_(chain_k_bead()), kw_(chain_k_wall())
    {
    }

    /* penetration of contact k (0..n) in state s (realized to Position), m */
    double penetration(const State &s, int k) const
    {
        if (k == n_)
            return CHAIN_R - bodies_[n_].getBodyOriginLocation(s)[0];
        return 2.0 * CHAIN_R - (bodies_[k].getBodyOriginLocation(s)[0] -
                                bodies_[k + 1].getBodyOriginLocation(s)[0]);
    }

    double force(const State &s, int k) const
    {
        double d = penetration(s, k);
        return d > 0.0 ? (k == n_ ? kw_ : kb_) * d * std::sqrt(d) : 0.0;
    }

    void calcForce(const State &s, Vector_<SpatialVec> &bodyForces, Vector_<Vec3> &,
                   Vector &) const override
    {
        double xa = bodies_[0].getBodyOriginLocation(s)[0];
        for (int k = 0; k < n_; k++) {
            double xb = bodies_[k + 1].getBodyOriginLocation(s)[0];
            double d = 2.0 * CHAIN_R - (xa - xb);
            if (d > 0.0) {
                double f = kb_ * d * std::sqrt(d);
                bodyForces[bodies_[k].getMobilizedBodyIndex()][1][0] += f;
                bodyForces[bodies_[k + 1].getMobilizedBodyIndex()][1][0] -= f;
            }
            xa = xb;
        }
        double d = CHAIN_R - xa;
        if (d > 0.0)
            bodyForces[bodies_[n_].getMobilizedBodyIndex()][1][0] += kw_ * d * std::sqrt(d);
    }

    Real calcPotentialEnergy(const State &s) const override
    {
        double e = 0.0;
        for (int k = 0; k <= n_; k++) {
            double d = penetration(s, k);
            if (d > 0.0)
                e += 0.4 * (k == n_ ? kw_ : kb_) * d * d * std::sqrt(d);
        }
        return e;
    }

    bool dependsOnlyOnPositions() const override
    {
        return true;
    }

  private:
    std::vector<MobilizedBody> bodies_;
    int n_;
    double kb_, kw_;
};

std::unique_ptr<Integrator> make_integrator(const std::string &name, const System &sys)
{
    if (name == "rkm")
        return std::unique_ptr<Integrator>(new RungeKuttaMersonIntegrator(sys));
    if (name == "rkf")
        return std::unique_ptr<Integrator>(new RungeKuttaFeldbergIntegrator(sys));
    if (name == "rk3")
        return std::unique_ptr<Integrator>(new RungeKutta3Integrator(sys));
    if (name == "rk2")
        return std::unique_ptr<Integrator>(new RungeKutta2Integrator(sys));
    if (name == "verlet")
        return std::unique_ptr<Integrator>(new VerletIntegrator(sys));
    if (name == "cpodes-adams")
        return std::unique_ptr<Integrator>(
            new CPodesIntegrator(sys, CPodes::Adams, CPodes::Functional));
    if (name == "cpodes-bdf")
        return std::unique_ptr<Integrator>(new CPodesIntegrator(sys, CPodes::BDF));
    return nullptr;
}

long maxrss_kib()
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
}

int parse_positive(const char *s, double *x)
{
    char *end;
    errno = 0;
    *x = std::strtod(s, &end);
    return (end == s || *end != '\0' || errno != 0 || !std::isfinite(*x) || *x <= 0.0) ? -1 : 0;
}

int usage()
{
    std::fprintf(stderr, "usage: simbody_chain CSV N WINDOW_S "
                         "rkm|rkf|rk3|rk2|verlet|cpodes-adams|cpodes-bdf ACCURACY slider|planar\n");
    return 2;
}

int run(const char *csv, int n, double window, const std::string &integ_name, double accuracy,
        bool planar)
{
    double t0 = bench_now();
    MultibodySystem system;
    SimbodyMatterSubsystem matter(system);
    GeneralForceSubsystem forces(system);
    Body::Rigid bead(MassProperties(CHAIN_MASS, Vec3(0), UnitInertia::sphere(CHAIN_R)));

    /* bodies[0] the striker, bodies[i] bead i */
    std::vector<MobilizedBody> bodies(static_cast<size_t>(n) + 1);
    for (int i = 0; i <= n; i++) {
        Transform at(Vec3(chain_x0(n, i == 0 ? n + 1 : i), 0, 0));
        if (planar)
            bodies[i] = MobilizedBody::Planar(matter.Ground(), at, bead, Transform());
        else
            bodies[i] = MobilizedBody::Slider(matter.Ground(), at, bead, Transform());
    }
    ChainContacts *contacts = new ChainContacts(bodies, n); /* owned by the force element */
    Force::Custom(forces, contacts);

    State state = system.realizeTopology();
    bodies[0].setUToFitLinearVelocity(state, Vec3(-CHAIN_V, 0, 0));
    std::unique_ptr<Integrator> integ = make_integrator(integ_name, system);
    if (!integ)
        return usage();
    integ->setAccuracy(accuracy);
    integ->initialize(state);
    double build_s = bench_now() - t0;

    int sens[CHAIN_NSENSOR];
    chain_sensors(n, window, sens);
    std::FILE *f = std::fopen(csv, "w");
    if (!f) {
        std::fprintf(stderr, "simbody_chain: %s: %s\n", csv, std::strerror(errno));
        return 1;
    }
    chain_csv_header(f, sens);
    /* the samples are kept in memory and written after the timed loop */
    long ns = chain_samples(window);
    std::vector<double> samples(static_cast<size_t>(ns) * CHAIN_NSENSOR);

    t0 = bench_now();
    for (long i = 1; i <= ns; i++) {
        double t = static_cast<double>(i) * CHAIN_DT;
        Integrator::SuccessfulStepStatus st;
        do {
            st = integ->stepTo(t);
        } while (st == Integrator::ReachedStepLimit || st == Integrator::StartOfContinuousInterval);
        if (st != Integrator::ReachedReportTime && st != Integrator::EndOfSimulation) {
            std::fprintf(stderr, "simbody_chain: stepTo(%g) stopped: %s\n", t,
                         Integrator::getSuccessfulStepStatusString(st).c_str());
            std::fclose(f);
            return 1;
        }
        const State &s = integ->getState();
        system.realize(s, Stage::Position);
        for (int j = 0; j < CHAIN_NSENSOR; j++)
            samples[static_cast<size_t>(i - 1) * CHAIN_NSENSOR + j] = contacts->force(s, sens[j]);
    }
    double wall_s = bench_now() - t0;

    for (long i = 1; i <= ns; i++)
        chain_csv_row(f, static_cast<double>(i) * CHAIN_DT,
                      &samples[static_cast<size_t>(i - 1) * CHAIN_NSENSOR]);
    if (std::fclose(f) != 0) {
        std::fprintf(stderr, "simbody_chain: %s: %s\n", csv, std::strerror(errno));
        return 1;
    }
    std::printf("{\"code\": \"simbody\", \"n\": %d, \"window_s\": %.9g, \"integrator\": \"%s\", "
                "\"accuracy\": %.3g, \"mobilizer\": \"%s\", \"build_s\": %.6g, \"wall_s\": %.6g, "
                "\"steps\": %d, \"realizations\": %d, \"error_test_fails\": %d, "
                "\"maxrss_kib\": %ld, \"vmhwm_kib\": %ld}\n",
                n, window, integ_name.c_str(), accuracy, planar ? "planar" : "slider", build_s,
                wall_s, integ->getNumStepsTaken(), integ->getNumRealizations(),
                integ->getNumErrorTestFailures(), maxrss_kib(), chain_vmhwm_kib());
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    double n, w, acc;
    if (argc != 7 || parse_positive(argv[2], &n) != 0 || n != std::floor(n) || n < 2 || n > 1e6 ||
        parse_positive(argv[3], &w) != 0 || w < CHAIN_DT || parse_positive(argv[5], &acc) != 0 ||
        (std::strcmp(argv[6], "slider") != 0 && std::strcmp(argv[6], "planar") != 0))
        return usage();
    try {
        return run(argv[1], static_cast<int>(n), w, argv[4], acc,
                   std::strcmp(argv[6], "planar") == 0);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "simbody_chain: %s\n", e.what());
        return 1;
    }
}
