// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "registrytypes.h"

namespace gpudesk {

// What a GPU node pulls from an index: its linux/amd64 image, else the first real platform
// (BuildKit's attestations, "unknown/unknown", are not one). Null when it names none.
inline const RegistryDescriptor *nodeImageOf(const RegistryManifest &index)
{
    const RegistryDescriptor *pick = nullptr;
    for (const RegistryDescriptor &e : index.entries)
        if (!e.attestation &&
            (!pick || (e.os == QLatin1String("linux") && e.architecture == QLatin1String("amd64"))))
            pick = &e;
    return pick;
}

} // namespace gpudesk
