// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

namespace gpudesk {

class NodeAccess;
class TelemetryStore;

// The nodes whose SSH host keys gpudesk does not know, in one list: a new cluster has hundreds,
// compared with what the admin has (an inventory, ssh-keyscan from a trusted network), not
// asked one prompt each. The ticked ones are trusted once or remembered; none silently.
class HostKeysDialog : public QDialog
{
    Q_OBJECT
public:
    HostKeysDialog(NodeAccess *access, const TelemetryStore *telemetry, const QStringList &nodes,
                   QWidget *parent = nullptr);
};

} // namespace gpudesk
