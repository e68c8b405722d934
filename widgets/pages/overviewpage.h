// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "noticebanner.h"

#include "telemetrystore.h"

#include <QElapsedTimer>
#include <QWidget>

#include <optional>

class QGridLayout;
class QLabel;
class QPushButton;

namespace gpudesk {

class AlertCenter;
class BarChart;
class ClusterStore;
class FindingsService;
class GpuUseChart;
class GpuUseSampler;
class HistoryService;
class TableFilter;
class UsersModel;
class NumberCard;
class TelemetryStore;
struct StoreChanges;

// The cluster at a glance: GPUs total / allocated / free and pending demand, nodes, jobs, GPUs
// per VC against capability, per GPU model, and the top users. The same figures as the other
// pages and the report, from the same store.
class ConnectionState;

class OverviewPage : public QWidget
{
    Q_OBJECT
public:
    explicit OverviewPage(ClusterStore *store, QWidget *parent = nullptr);
    // The problems as listed (rich text).
    QString problemsText() const;
    // Where the account sees only one namespace, cluster-wide allocation is not knowable.
    void setScope(const QString &onlyNamespace, bool volcano);
    void setTelemetry(TelemetryStore *telemetry);
    // The users' figures for the top users' chart: the Users page's model, one for both (each
    // keeps a tally of every workload).
    void setUsers(UsersModel *users);
    // What holds GPUs and should not, counted under the GPU figures with a link to Cleanup.
    void setFindings(FindingsService *findings);
    // The alerts (with since when, acknowledge) instead of the rules evaluated here.
    void setAlerts(AlertCenter *alerts);
    // The chart of GPUs allocated against busy over the last hours.
    // The chart of GPUs allocated and busy: gpudesk's samples, and Prometheus' history when
    // `history` has one.
    void setGpuUse(GpuUseSampler *sampler, HistoryService *history);
    // The connection the figures come from: without a live one, no figure is shown as the
    // cluster's (issue 34: an unreachable cluster showed zeros and "Nothing needs attention").
    void setConnection(const ConnectionState *connection);
    GpuUseChart *gpuUseChart() const { return m_gpuUse; }

signals:
    void showWorkloads(int statusClass);
    void showNodes();
    // A problem's node, to show on the Nodes page.
    void showNode(const QString &node);
    void showCleanup();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void refresh();
    void refreshFindings();
    void refreshProblems();

    ClusterStore *m_store;
    NumberCard *m_total;
    NumberCard *m_allocated;
    NumberCard *m_free;
    NumberCard *m_pending;
    NumberCard *m_busy;
    NumberCard *m_unserved;
    QLabel *m_findingsLink;
    TelemetryStore *m_telemetry = nullptr;
    FindingsService *m_findings = nullptr;
    NumberCard *m_nodes;
    NumberCard *m_jobs;
    NoticeBanner *m_scope;
    QWidget *m_vcBox;
    QWidget *m_usersBox;
    QLabel *m_noVolcano;
    QGridLayout *m_models;
    QLabel *m_problems; // what needs an admin's eyes now (the alerts), each node a link
    QPushButton *m_acknowledgeAll;
    AlertCenter *m_alerts = nullptr;
    QGridLayout *m_charts = nullptr;
    GpuUseChart *m_gpuUse = nullptr;
    QString m_onlyNamespace;
    TableFilter *m_topUsers = nullptr;
    std::optional<bool> m_volcano; // unknown until the first setScope
    void refreshWhenShown();
    bool m_stale = false;       // changed while hidden: refreshed when shown
    bool m_allProblems = false; // "and N more" was clicked: every alert is listed
    const ConnectionState *m_connection = nullptr;
};

} // namespace gpudesk
