// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringView>
#include <QtGlobal>

// Where a test finds its data and the programs it drives. ctest tells the test in its environment
// (gpudesk_add_test, tests/CMakeLists.txt) instead of compiling the paths in: an absolute path in
// a test's compile line makes two checkouts' compiles differ, and a fresh clone (CI's) would take
// none of them from the compiler cache.
namespace TestPaths {

inline QString fromEnvironment(const char *name)
{
    const QString value = qEnvironmentVariable(name);
    if (value.isEmpty())
        qFatal("%s is not set: run the test with ctest, or set it as tests/CMakeLists.txt does",
               name);
    return value;
}

// tests/data in the source tree, and a path below it ("/probe/").
inline QString testData(QStringView below = {})
{
    return fromEnvironment("GPUDESK_TEST_DATA") + below;
}

// The source tree's top, and a path below it ("/scripts/sim-prometheus").
inline QString sourceDir(QStringView below = {})
{
    return fromEnvironment("GPUDESK_SOURCE_DIR") + below;
}

// The build's compiled translations (gpudesk_zh_CN.qm).
inline QString qmDir()
{
    return fromEnvironment("GPUDESK_QM_DIR");
}

// The simulator and the application the build made.
inline QString simBin()
{
    return fromEnvironment("GPUDESK_SIM_BIN");
}

inline QString gpudeskBin()
{
    return fromEnvironment("GPUDESK_BIN");
}

} // namespace TestPaths
