// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVariantMap>

namespace gpudesk {

// Every setting gpudesk keeps (QSettings: ~/.config/gpudesk/gpudesk.conf), its key, default and
// range in one place: the command line, the services and the window read the same value under
// the same key (`--cleanup` once read prometheus/url while the window read the context's own).
// The alert thresholds are AlertRules' (alertrules.h), a group of their own.
class AppSettings
{
public:
    // Session: the kubeconfig picked in the window (when none was given), the last context.
    static QString kubeconfig();
    static void setKubeconfig(const QString &path);
    static QString lastContext();
    static void setLastContext(const QString &context);

    // Prometheus: the context's own, else the one for every context ("" for none).
    static QString prometheusFor(const QString &context);
    static QString prometheusOfContext(const QString &context);
    static void setPrometheusOfContext(const QString &context, const QString &url);
    static QString prometheusForAll();

    // SSH to a context's nodes, for clusters whose nodes are not in the user's SSH config.
    struct Ssh
    {
        QString user;
        QString identityFile;
        QString proxyJump;
        QString config; // an SSH config file of its own
    };
    static Ssh ssh(const QString &context);
    static void setSsh(const QString &context, const Ssh &ssh);
    // The NAS of a context: its roots of users' folders and of groups' folders (the seed
    // layout /mnt/user and /mnt/share unless set), the node to measure it on ("" for the first
    // that answers), and the hours between two automatic walks (1–168, 6 unless set): the NAS
    // must not feel gpudesk.
    struct Storage
    {
        QStringList userRoots;
        QStringList groupRoots;
        QString node;
    };
    static Storage storage(const QString &context);
    static void setStorage(const QString &context, const Storage &storage);
    static int storageIntervalHours();
    static void setStorageIntervalHours(int hours);
    // Seconds between two samples of a node (1–60, 2 unless set).
    static int telemetryIntervalSeconds();
    static void setTelemetryIntervalSeconds(int seconds);

    // The desk: language ("" follows the system), theme (theme.h's names), alerts told as
    // notifications (on unless set), watching on in the tray when the window closes (off).
    static QString language();
    static void setLanguage(const QString &language);
    static QString theme();
    static void setTheme(const QString &theme);
    static bool notify();
    static void setNotify(bool on);
    static bool keepWatching();
    static void setKeepWatching(bool on);

    // Cleanup: how long a GPU must be idle to be a finding (minutes, 60 unless set).
    static int idleForMinutes();
    static void setIdleForMinutes(int minutes);

    // Images: registries added by hand, those reached over plain HTTP (by the user's choice),
    // the size over which an image is flagged (GiB, 20 unless set), the hosts whose login the
    // keychain keeps, and the user name used at each host.
    static QStringList addedRegistries();
    static QStringList plainHttpRegistries();
    static void setRegistries(const QStringList &added, const QStringList &plainHttp);
    static double hugeImageGiB();
    static void setHugeImageGiB(double gib);
    static QStringList keychainLogins();
    static void setKeychainLogins(const QStringList &hosts);
    static QVariantMap loginUsers();
    static void setLoginUsers(const QVariantMap &users);

    // The window: geometry, dock state, page, column widths of a table ("nodes", "workloads",
    // "events"), the nodes page's splitter, the GPU map's zoom (0: fit) and grouping.
    static QByteArray windowGeometry();
    static QByteArray windowState();
    static int windowPage();
    static void setWindow(const QByteArray &geometry, const QByteArray &state, int page);
    static QByteArray columns(const QString &table);
    static void setColumns(const QString &table, const QByteArray &state);
    static QByteArray nodesSplitter();
    static void setNodesSplitter(const QByteArray &state);
    static int gpuMapZoom();
    static void setGpuMapZoom(int percent);
    static QString gpuMapGroupBy();
    static void setGpuMapGroupBy(const QString &groupBy);
};

} // namespace gpudesk
