// SPDX-License-Identifier: GPL-3.0-or-later
#include "userdetailpanel.h"

#include "format.h"
#include "palette.h"
#include "userdrift.h"
#include "usersmodel.h"
#include "userspec.h"
#include "usersservice.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace gpudesk {

namespace {

QString resourceLabel(const QString &resource)
{
    const QString base = quantity::baseName(resource);
    if (base == QLatin1String("nvidia.com/gpu"))
        return UserDetailPanel::tr("GPUs");
    if (base == QLatin1String("cpu"))
        return UserDetailPanel::tr("CPU");
    if (base == QLatin1String("memory"))
        return UserDetailPanel::tr("Memory");
    if (base == QLatin1String("pods"))
        return UserDetailPanel::tr("Pods");
    if (base == QLatin1String("storage"))
        return UserDetailPanel::tr("Storage");
    return resource;
}

} // namespace

UserDetailPanel::UserDetailPanel(UsersService *users, const UsersModel *model, QWidget *parent)
    : QWidget(parent), m_users(users), m_model(model), m_title(new QLabel(this)),
      m_quotaBox(new QWidget(this)), m_quotaLayout(new QVBoxLayout(m_quotaBox)),
      m_table(new QTableWidget(0, 4, this)), m_drift(new QLabel(this)),
      m_repair(new QPushButton(tr("Repair…"), this))
{
    m_title->setObjectName(QStringLiteral("userTitle"));
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.15);
    big.setBold(true);
    m_title->setFont(big);
    m_title->setTextFormat(Qt::PlainText);
    m_quotaLayout->setContentsMargins(0, 0, 0, 0);
    m_quotaLayout->setSpacing(4);
    m_table->setObjectName(QStringLiteral("userObjects"));
    m_table->setHorizontalHeaderLabels({tr("Object"), tr("Name"), tr("State"), tr("Detail")});
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    m_drift->setObjectName(QStringLiteral("userDrift"));
    m_drift->setWordWrap(true);
    m_drift->setTextFormat(Qt::PlainText);
    m_repair->setObjectName(QStringLiteral("repairUser"));
    m_repair->setVisible(false);
    connect(m_repair, &QPushButton::clicked, this, [this] { emit repairRequested(m_objects); });

    auto *left = new QVBoxLayout;
    left->addWidget(m_title);
    left->addWidget(m_quotaBox);
    left->addStretch(1);
    auto *right = new QVBoxLayout;
    right->addWidget(m_table, 1);
    auto *driftRow = new QHBoxLayout;
    driftRow->addWidget(m_drift, 1);
    driftRow->addWidget(m_repair, 0, Qt::AlignTop);
    right->addLayout(driftRow);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(left, 2);
    layout->addLayout(right, 3);
    connect(model, &QAbstractItemModel::dataChanged, this, &UserDetailPanel::updateQuota);
    show(QString());
}

void UserDetailPanel::show(const QString &ns)
{
    m_ns = ns;
    refresh();
}

void UserDetailPanel::refresh()
{
    const int generation = ++m_generation;
    m_loaded = false;
    m_objects = UserObjects();
    m_table->setRowCount(0);
    m_repair->setVisible(false);
    updateQuota();
    if (m_ns.isEmpty()) {
        m_drift->setText(tr("Select a user to see the objects that make them up."));
        return;
    }
    m_drift->setText(tr("Reading %1's objects from the server…").arg(m_ns));
    m_users->inspect(m_ns, this, [this, generation](const UserObjects &objects) {
        if (generation != m_generation)
            return;
        m_objects = objects;
        m_loaded = true;
        showObjects();
        emit loaded();
    });
}

void UserDetailPanel::updateQuota()
{
    while (QLayoutItem *item = m_quotaLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    const UserSummary *s = m_ns.isEmpty() ? nullptr : m_model->summary(m_ns);
    if (!s) {
        m_title->setText(m_ns.isEmpty() ? tr("No user selected") : m_ns);
        return;
    }
    m_title->setText(
        tr("%1 · namespace %2 · VC %3 · %4")
            .arg(s->user, s->ns, s->vc.isEmpty() ? tr("none") : s->vc, UsersModel::stateText(*s)));
    if (s->hard.isEmpty()) {
        auto *none =
            new QLabel(tr("No quota: nothing limits what %1 may take.").arg(s->user), m_quotaBox);
        none->setWordWrap(true);
        m_quotaLayout->addWidget(none);
    }
    // GPUs first, then what a job needs beside them; then whatever else the quota limits.
    QStringList order;
    for (const QString &r : UserRules::quotaResources())
        if (s->hard.contains(r))
            order << r;
    for (auto it = s->hard.cbegin(); it != s->hard.cend(); ++it)
        if (!order.contains(it.key()))
            order << it.key();
    for (const QString &r : std::as_const(order)) {
        const qint64 hard = s->hard.value(r);
        const qint64 used = s->used.value(r);
        auto *row = new QWidget(m_quotaBox);
        auto *h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        auto *name = new QLabel(resourceLabel(r), row);
        name->setMinimumWidth(70);
        name->setToolTip(r);
        auto *bar = new QProgressBar(row);
        bar->setRange(0, 1000);
        bar->setValue(hard > 0 ? int(std::min(1000.0, double(used) * 1000.0 / double(hard)))
                               : (used > 0 ? 1000 : 0));
        bar->setFormat(tr("%1 of %2").arg(quantity::format(r, used), quantity::format(r, hard)));
        bar->setTextVisible(true);
        if (used > hard || (hard > 0 && used * 10 >= hard * 9)) {
            QPalette p = bar->palette();
            p.setColor(QPalette::Highlight, used > hard ? colors::error() : colors::warning());
            bar->setPalette(p);
        }
        h->addWidget(name);
        h->addWidget(bar, 1);
        m_quotaLayout->addWidget(row);
    }
    auto *facts = new QLabel(tr("GPUs in use: %1 · jobs running %2, waiting %3 (%4 stuck), "
                                "failed %5 · dev environments %6")
                                 .arg(s->gpusInUse)
                                 .arg(s->running)
                                 .arg(s->waiting)
                                 .arg(s->stuck)
                                 .arg(s->failed)
                                 .arg(s->devEnvs),
                             m_quotaBox);
    facts->setWordWrap(true);
    m_quotaLayout->addWidget(facts);
}

void UserDetailPanel::showObjects()
{
    const UserObjects &u = m_objects;
    const QList<UserDrift> drift = UserDriftCheck::check(u);
    auto stateOf = [&](const QString &object) {
        for (const UserDrift &d : drift)
            if (d.object == object)
                return d.problem;
        return QString();
    };
    QList<QStringList> rows;
    if (!u.namespaceObject) {
        rows << QStringList{tr("Namespace"), u.ns, tr("missing"),
                            tr("the user's namespace is gone")};
    } else {
        const NamespaceObject &n = *u.namespaceObject;
        rows << QStringList{tr("Namespace"), n.name, n.phase,
                            tr("user %1, VC %2")
                                .arg(n.label(QStringLiteral("gpudesk.io/user")),
                                     n.label(QStringLiteral("gpudesk.io/vc")))};
    }
    for (const ServiceAccountInfo &sa : u.serviceAccounts)
        if (sa.name != QLatin1String("default"))
            rows << QStringList{tr("ServiceAccount"), sa.name, tr("present"),
                                tr("uid %1").arg(sa.uid)};
    for (const RoleBindingInfo &rb : u.roleBindings) {
        QStringList who;
        for (const Subject &s : rb.subjects)
            who << s.kind + u' ' + s.name;
        const QString problem = stateOf(tr("RoleBinding %1").arg(rb.name));
        rows << QStringList{
            tr("RoleBinding"), rb.name, problem.isEmpty() ? tr("present") : tr("drifted"),
            tr("%1 %2 for %3").arg(rb.roleKind, rb.roleName, who.join(QStringLiteral(", ")))};
    }
    for (const RoleBindingInfo &rb : u.clusterRoleBindings)
        rows << QStringList{tr("ClusterRoleBinding"), rb.name, tr("present"),
                            tr("%1 %2, cluster-wide").arg(rb.roleKind, rb.roleName)};
    for (const QuotaObject &q : u.quotas) {
        const QString problem = stateOf(tr("ResourceQuota %1").arg(q.quota.name));
        QStringList limits;
        for (auto it = q.quota.hard.cbegin(); it != q.quota.hard.cend(); ++it)
            limits << it.key() + u'=' + quantity::format(it.key(), it.value());
        rows << QStringList{tr("ResourceQuota"), q.quota.name,
                            problem.isEmpty() ? tr("present") : tr("edited"),
                            limits.join(QStringLiteral(", "))};
    }
    for (const LimitRangeInfo &l : u.limitRanges) {
        QStringList d;
        for (auto it = l.defaultRequest.cbegin(); it != l.defaultRequest.cend(); ++it)
            d << it.key() + u'=' + quantity::format(it.key(), it.value());
        rows << QStringList{tr("LimitRange"), l.name, tr("present"),
                            tr("default requests %1").arg(d.join(QStringLiteral(", ")))};
    }
    for (const TokenSecretInfo &t : u.tokenSecrets)
        rows << QStringList{
            tr("Token Secret"), t.name, t.filled ? tr("issued") : tr("pending"),
            tr("long-lived token of %1, made %2").arg(t.serviceAccount, format::when(t.created))};
    for (const PvcInfo &p : u.pvcs)
        rows << QStringList{
            tr("Volume"), p.name, p.phase,
            tr("%1, %2").arg(quantity::format(QStringLiteral("storage"), p.requestBytes * 1000),
                             p.storageClass.isEmpty() ? tr("default class") : p.storageClass)};
    for (const UserDrift &d : drift) {
        if (d.kind == UserDrift::Kind::MissingServiceAccount ||
            d.kind == UserDrift::Kind::MissingRoleBinding ||
            d.kind == UserDrift::Kind::MissingQuota || d.kind == UserDrift::Kind::MissingLimitRange)
            rows << QStringList{d.object.section(u' ', 0, 0), d.object.section(u' ', 1),
                                tr("missing"), d.problem};
    }
    m_table->setRowCount(int(rows.size()));
    for (int r = 0; r < rows.size(); ++r)
        for (int c = 0; c < 4; ++c) {
            auto *item = new QTableWidgetItem(rows[r].value(c));
            item->setToolTip(rows[r].value(c));
            if (c == 2 && (rows[r][2] == tr("missing") || rows[r][2] == tr("drifted") ||
                           rows[r][2] == tr("edited")))
                item->setForeground(colors::warning());
            m_table->setItem(r, c, item);
        }
    m_table->resizeColumnsToContents();
    QStringList lines;
    for (const UserDrift &d : drift)
        lines << QStringLiteral("• %1: %2").arg(d.object, d.problem);
    for (const QString &e : u.unreadable)
        lines << tr("• could not read %1").arg(e);
    m_drift->setText(lines.isEmpty() ? tr("Everything is as gpudesk makes it.")
                                     : QString(tr("Drift from what gpudesk makes:") + u'\n' +
                                               lines.join(u'\n')));
    bool repairable = false;
    for (const UserDrift &d : drift)
        repairable = repairable || !d.repair.isEmpty();
    m_repair->setVisible(repairable);
}

} // namespace gpudesk
