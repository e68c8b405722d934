// SPDX-License-Identifier: GPL-3.0-or-later
#include "queuedialog.h"

#include "clusterstore.h"
#include "palette.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace gpudesk {

namespace {

const QStringList kLists{QStringLiteral("capability"), QStringLiteral("deserved"),
                         QStringLiteral("guarantee")};
const QStringList kResources{QStringLiteral("nvidia.com/gpu"), QStringLiteral("cpu"),
                             QStringLiteral("memory")};

ResourceAmounts QueueSpec::*member(const QString &list)
{
    if (list == QLatin1String("capability"))
        return &QueueSpec::capability;
    if (list == QLatin1String("deserved"))
        return &QueueSpec::deserved;
    return &QueueSpec::guarantee;
}

QLabel *coloured(QWidget *parent, const QColor &colour)
{
    auto *l = new QLabel(parent);
    l->setWordWrap(true);
    l->setTextFormat(Qt::PlainText);
    if (colour.isValid()) {
        QPalette p = l->palette();
        p.setColor(QPalette::WindowText, colour);
        l->setPalette(p);
    }
    return l;
}

} // namespace

QueueDialog::QueueDialog(const ClusterStore *store, const QString &name, QWidget *parent)
    : QDialog(parent), m_store(store), m_creating(name.isEmpty()), m_name(new QLineEdit(this)),
      m_parent(new QComboBox(this)), m_weight(new QSpinBox(this)),
      m_reclaimable(new QCheckBox(tr("Other VCs may reclaim what it borrows"), this)),
      m_errors(coloured(this, colors::error())), m_warnings(coloured(this, colors::warning())),
      m_effects(coloured(this, QColor())),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(m_creating ? tr("New VC") : tr("VC %1").arg(name));
    resize(640, 520);
    if (const QueueInfo *q = store->queue(name))
        m_original = QueueSpec::of(*q);
    m_name->setObjectName(QStringLiteral("queueName"));
    m_name->setText(name);
    m_name->setReadOnly(!m_creating);
    m_parent->setObjectName(QStringLiteral("queueParent"));
    m_parent->addItem(tr("(top level)"), QString());
    for (const QueueInfo &q : store->queues())
        if (q.name != name)
            m_parent->addItem(q.name, q.name);
    const QString parentName =
        m_original.parent == QLatin1String("root") ? QString() : m_original.parent;
    m_parent->setCurrentIndex(std::max(0, m_parent->findData(parentName)));
    m_weight->setObjectName(QStringLiteral("queueWeight"));
    m_weight->setRange(1, 100000);
    m_weight->setValue(m_creating ? 1 : m_original.weight);
    m_reclaimable->setChecked(m_creating || m_original.reclaimable);

    auto *form = new QFormLayout;
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Parent"), m_parent);
    form->addRow(tr("Weight"), m_weight);
    form->addRow(QString(), m_reclaimable);
    auto *grid = new QGridLayout;
    const QStringList listTitles{tr("Capability (ceiling)"), tr("Deserved (fair share)"),
                                 tr("Guarantee (kept for it)")};
    const QStringList resourceTitles{tr("GPUs"), tr("CPU cores"), tr("Memory")};
    for (int c = 0; c < kLists.size(); ++c)
        grid->addWidget(new QLabel(QStringLiteral("<b>%1</b>").arg(listTitles[c]), this), 0, c + 1);
    for (int r = 0; r < kResources.size(); ++r) {
        grid->addWidget(new QLabel(resourceTitles[r], this), r + 1, 0);
        for (int c = 0; c < kLists.size(); ++c) {
            auto *e = new QLineEdit(this);
            e->setObjectName(kLists[c] + u':' + kResources[r]);
            e->setProperty("list", kLists[c]);
            e->setProperty("resource", kResources[r]);
            e->setPlaceholderText(c == 0 ? tr("unlimited") : tr("not set"));
            const ResourceAmounts &a = m_original.*member(kLists[c]);
            if (a.contains(kResources[r]))
                e->setText(quantity::format(kResources[r], a.value(kResources[r])));
            connect(e, &QLineEdit::textChanged, this, &QueueDialog::check);
            grid->addWidget(e, r + 1, c + 1);
            m_amounts << e;
        }
    }
    m_errors->setObjectName(QStringLiteral("queueErrors"));
    m_warnings->setObjectName(QStringLiteral("queueWarnings"));
    m_effects->setObjectName(QStringLiteral("queueEffects"));
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(grid);
    layout->addWidget(m_errors);
    layout->addWidget(m_warnings);
    layout->addWidget(m_effects);
    layout->addStretch(1);
    layout->addWidget(m_buttons);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Plan…"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_name, &QLineEdit::textChanged, this, &QueueDialog::check);
    connect(m_parent, &QComboBox::currentIndexChanged, this, &QueueDialog::check);
    connect(m_weight, &QSpinBox::valueChanged, this, &QueueDialog::check);
    connect(m_reclaimable, &QCheckBox::toggled, this, &QueueDialog::check);
    check();
}

QLineEdit *QueueDialog::amount(const QString &list, const QString &resource) const
{
    for (QLineEdit *e : m_amounts)
        if (e->property("list").toString() == list &&
            e->property("resource").toString() == resource)
            return e;
    return nullptr;
}

QueueSpec QueueDialog::spec() const
{
    QueueSpec s = m_original;
    s.name = m_name->text().trimmed();
    s.parent = m_parent->currentData().toString();
    s.weight = m_weight->value();
    s.reclaimable = m_reclaimable->isChecked();
    // Resources the form does not show (a queue limiting "pods") are kept as they are.
    for (const QString &list : kLists)
        for (const QString &r : kResources)
            (s.*member(list)).remove(r);
    for (const QLineEdit *e : m_amounts) {
        if (const auto v = quantity::parseMilli(e->text()))
            (s.*member(e->property("list").toString()))
                .insert(e->property("resource").toString(), *v);
    }
    return s;
}

bool QueueDialog::canPlan() const
{
    return m_buttons->button(QDialogButtonBox::Ok)->isEnabled();
}

void QueueDialog::check()
{
    QStringList errors;
    for (const QLineEdit *e : m_amounts)
        if (!e->text().trimmed().isEmpty() && !quantity::parseMilli(e->text()))
            errors << tr("\"%1\" is not a quantity (e.g. 8, 500m, 960Gi).").arg(e->text());
    const QueueSpec s = spec();
    errors << QueueRules::errors(s, m_store->queues(), m_creating);
    const bool changed = m_creating || !(s == m_original);
    m_errors->setText(errors.join(u'\n'));
    m_errors->setVisible(!errors.isEmpty());
    const QStringList warnings =
        errors.isEmpty() ? QueueRules::warnings(s, *m_store) : QStringList();
    m_warnings->setText(warnings.join(u'\n'));
    m_warnings->setVisible(!warnings.isEmpty());
    const QStringList effects =
        errors.isEmpty() && changed ? QueueRules::effects(s, *m_store) : QStringList();
    m_effects->setText(effects.join(u'\n'));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(errors.isEmpty() && changed);
}

} // namespace gpudesk
