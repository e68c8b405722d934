// SPDX-License-Identifier: GPL-3.0-or-later
#include "palette.h"

#include <iterator>

namespace gpudesk::colors {

namespace {

// A fixed qualitative set (Paul Tol's "muted" and Okabe–Ito's, without their greys and the
// greens nearest "free"). On the GPU map state is told by shape and border, never by fill, so no
// fill can be mistaken for one.
constexpr QRgb kColors[] = {0x332288, 0x88ccee, 0x44aa99, 0xddcc77, 0xcc6677, 0xaa4499,
                            0x882255, 0xe69f00, 0x56b4e9, 0x0072b2, 0xd55e00, 0xcc79a7,
                            0x6699cc, 0x997700, 0xee8866, 0x225555};
constexpr int kCount = int(std::size(kColors));

// FNV-1a of the name: the same on every start and every machine (qHash is seeded per process
// and may use the CPU's AES instructions, so it is not).
int preferred(const QString &name)
{
    quint32 h = 2166136261u;
    for (const QChar c : name)
        h = (h ^ c.unicode()) * 16777619u;
    return int(h % kCount);
}

} // namespace

QColor forName(const QString &name)
{
    return QColor::fromRgb(kColors[preferred(name)]);
}

QHash<QString, QColor> forNames(QStringList names)
{
    // Each takes its own colour unless one before it (by name) did; then the next free one.
    // Distinct while there are no more names than colours; the same for the same names anywhere.
    names.sort();
    names.removeDuplicates();
    QHash<QString, QColor> out;
    bool taken[kCount] = {};
    int used = 0;
    for (const QString &name : std::as_const(names)) {
        int i = preferred(name);
        if (used < kCount) {
            while (taken[i])
                i = (i + 1) % kCount;
            taken[i] = true;
            ++used;
        }
        out.insert(name, QColor::fromRgb(kColors[i]));
    }
    return out;
}

} // namespace gpudesk::colors
