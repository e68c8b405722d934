// SPDX-License-Identifier: GPL-3.0-or-later
#include "hostkeysdialog.h"

#include "nodeaccess.h"
#include "telemetrystore.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace gpudesk {

HostKeysDialog::HostKeysDialog(NodeAccess *access, const TelemetryStore *telemetry,
                               const QStringList &nodes, QWidget *parent)
    : QDialog(parent)
{
    setAttribute(Qt::WA_DeleteOnClose);
    setObjectName(QStringLiteral("hostKeyReview"));
    setWindowTitle(tr("Unknown host keys"));
    auto *t = new QTableWidget(int(nodes.size()), 4, this);
    t->setObjectName(QStringLiteral("hostKeyTable"));
    t->setHorizontalHeaderLabels({tr("Node"), tr("Address"), tr("Key type"), tr("Fingerprint")});
    t->verticalHeader()->hide();
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int r = 0; r < nodes.size(); ++r) {
        const SshStatus st = telemetry->sshStatus(nodes[r]);
        auto *check = new QTableWidgetItem(nodes[r]);
        check->setCheckState(Qt::Unchecked);
        t->setItem(r, 0, check);
        t->setItem(r, 1, new QTableWidgetItem(access->endpoint(nodes[r])));
        t->setItem(r, 2, new QTableWidgetItem(st.keyType));
        auto *fp = new QTableWidgetItem(st.fingerprint);
        fp->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        t->setItem(r, 3, fp);
    }
    t->resizeColumnsToContents();
    t->horizontalHeader()->setStretchLastSection(true);
    auto *label = new QLabel(tr("Tick the keys you have checked against the nodes' real keys. "
                                "gpudesk connects to no node you leave unticked."),
                             this);
    label->setWordWrap(true);
    auto *all = new QPushButton(tr("Tick all"), this);
    auto *once = new QPushButton(tr("Trust ticked once"), this);
    auto *always = new QPushButton(tr("Trust ticked and remember"), this);
    once->setObjectName(QStringLiteral("trustTickedOnce"));
    always->setObjectName(QStringLiteral("trustTickedAlways"));
    auto *cancel = new QPushButton(tr("Cancel"), this);
    connect(all, &QPushButton::clicked, t, [t] {
        for (int r = 0; r < t->rowCount(); ++r)
            t->item(r, 0)->setCheckState(Qt::Checked);
    });
    auto trust = [this, t, access](bool remember) {
        QStringList errors;
        for (int r = 0; r < t->rowCount(); ++r) {
            if (t->item(r, 0)->checkState() != Qt::Checked)
                continue;
            QString error;
            if (!access->trustHostKey(t->item(r, 0)->text(), remember, &error))
                errors << error;
        }
        accept();
        if (!errors.isEmpty())
            QMessageBox::warning(parentWidget(), tr("Host key"), errors.join(u'\n'));
    };
    connect(once, &QPushButton::clicked, this, [trust] { trust(false); });
    connect(always, &QPushButton::clicked, this, [trust] { trust(true); });
    connect(cancel, &QPushButton::clicked, this, &QDialog::reject);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(all);
    buttons->addStretch(1);
    buttons->addWidget(once);
    buttons->addWidget(always);
    buttons->addWidget(cancel);
    auto *l = new QVBoxLayout(this);
    l->addWidget(label);
    l->addWidget(t, 1);
    l->addLayout(buttons);
    resize(900, 480);
}

} // namespace gpudesk
