// SPDX-License-Identifier: GPL-3.0-or-later
#include "devenvdialog.h"

#include "formchoices.h"
#include "noticebanner.h"

#include "palette.h"

#include "clusterstore.h"
#include "format.h"
#include "imagesservice.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace gpudesk {

DevEnvDialog::DevEnvDialog(const ClusterStore *store, const QString &ns, QWidget *parent)
    : QDialog(parent), m_store(store), m_name(new QLineEdit(this)), m_ns(new QComboBox(this)),
      m_image(new QComboBox(this)), m_gpus(new QSpinBox(this)), m_gpuModel(new QComboBox(this)),
      m_cpu(new QLineEdit(this)), m_memory(new QLineEdit(this)), m_shm(new QLineEdit(this)),
      m_home(new QLineEdit(this)), m_homePath(new QLineEdit(this)), m_mounts(new QLineEdit(this)),
      m_vc(new QComboBox(this)), m_env(new QPlainTextEdit(this)), m_problems(new QLabel(this)),
      m_imageSize(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("New dev environment"));
    const DevEnvSpec defaults;
    m_name->setObjectName(QStringLiteral("devenvName"));
    m_name->setPlaceholderText(tr("lower-case letters, digits and '-'"));
    // The namespace: the context's own first; an admin may pick any user's.
    m_ns->setObjectName(QStringLiteral("devenvNamespace"));
    FormChoices::namespaces(m_ns, *store, ns);
    // Images: those dev environments run now, most used first; any other can be typed.
    m_image->setObjectName(QStringLiteral("devenvImage"));
    FormChoices::images(m_image, *store, [](const PodInfo &p) { return !p.devEnv.isEmpty(); });
    m_gpus->setObjectName(QStringLiteral("devenvGpus"));
    m_gpus->setRange(0, 16);
    m_gpus->setValue(defaults.gpus);
    m_gpuModel->setObjectName(QStringLiteral("devenvGpuModel"));
    FormChoices::gpuModels(m_gpuModel, *store);
    m_cpu->setText(defaults.cpu);
    m_memory->setText(defaults.memory);
    m_shm->setObjectName(QStringLiteral("devenvShm"));
    m_shm->setText(defaults.shm);
    m_shm->setToolTip(tr("/dev/shm, in memory: PyTorch DataLoader workers pass batches through "
                         "it and crash with a bus error at the default 64 MiB"));
    m_home->setText(defaults.homeSize);
    m_homePath->setText(defaults.homePath);
    m_mounts->setPlaceholderText(tr("CLAIM:/path, … (NAS shares, group data)"));
    m_vc->setObjectName(QStringLiteral("devenvVc"));
    m_vc->addItem(tr("The namespace's VC"), QString());
    for (const QueueInfo &q : store->queues())
        m_vc->addItem(q.name, q.name);
    m_env->setPlaceholderText(tr("NAME=value, one a line"));
    m_env->setMaximumHeight(fontMetrics().height() * 4);
    auto *services = new QHBoxLayout;
    for (const QString &s : DevEnvSpec::knownServices()) {
        auto *box =
            new QCheckBox(QStringLiteral("%1 (%2)").arg(s).arg(DevEnvSpec::portOf(s)), this);
        box->setObjectName(QStringLiteral("service:") + s);
        box->setProperty("service", s);
        box->setChecked(defaults.services.contains(s));
        box->setToolTip(tr("The image serves %1 on port %2").arg(s).arg(DevEnvSpec::portOf(s)));
        services->addWidget(box);
        m_services << box;
        connect(box, &QCheckBox::toggled, this, &DevEnvDialog::check);
    }
    services->addStretch(1);

    auto *form = new QFormLayout;
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Namespace"), m_ns);
    form->addRow(tr("Image"), m_image);
    m_imageSize->setObjectName(QStringLiteral("devenvImageSize"));
    m_imageSize->setWordWrap(true);
    m_imageSize->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    m_imageSize->setVisible(false);
    form->addRow(QString(), m_imageSize);
    auto *gpuRow = new QHBoxLayout;
    gpuRow->addWidget(m_gpus);
    gpuRow->addWidget(m_gpuModel, 1);
    form->addRow(tr("GPUs"), gpuRow);
    form->addRow(tr("CPU"), m_cpu);
    form->addRow(tr("Memory"), m_memory);
    form->addRow(tr("Shared memory"), m_shm);
    auto *homeRow = new QHBoxLayout;
    homeRow->addWidget(m_home);
    homeRow->addWidget(new QLabel(tr("at"), this));
    homeRow->addWidget(m_homePath, 1);
    form->addRow(tr("Home volume"), homeRow);
    form->addRow(tr("Other volumes"), m_mounts);
    form->addRow(tr("VC"), m_vc);
    form->addRow(tr("Environment"), m_env);
    form->addRow(tr("Services"), services);
    m_problems->setObjectName(QStringLiteral("devenvProblems"));
    m_problems->setWordWrap(true);
    showAsError(m_problems, true);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Plan…"));
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problems);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (QLineEdit *e : {m_name, m_cpu, m_memory, m_shm, m_home, m_homePath, m_mounts})
        connect(e, &QLineEdit::textChanged, this, &DevEnvDialog::check);
    connect(m_image, &QComboBox::currentTextChanged, this, &DevEnvDialog::check);
    // Asked once typing pauses, not at every key.
    m_sizeDelay.setSingleShot(true);
    m_sizeDelay.setInterval(600);
    connect(&m_sizeDelay, &QTimer::timeout, this, &DevEnvDialog::lookUpSize);
    connect(m_image, &QComboBox::currentTextChanged, this, [this] {
        if (m_images)
            m_sizeDelay.start();
    });
    connect(m_ns, &QComboBox::currentTextChanged, this, &DevEnvDialog::check);
    connect(m_vc, &QComboBox::currentIndexChanged, this, &DevEnvDialog::check);
    connect(m_gpus, &QSpinBox::valueChanged, this, &DevEnvDialog::check);
    resize(640, sizeHint().height());
    check();
}

DevEnvSpec DevEnvDialog::spec() const
{
    DevEnvSpec s;
    s.name = m_name->text().trimmed();
    s.ns = m_ns->currentText().trimmed();
    s.image = m_image->currentText().trimmed();
    s.gpus = m_gpus->value();
    s.gpuModel = m_gpuModel->currentData().toString();
    s.cpu = m_cpu->text().trimmed();
    s.memory = m_memory->text().trimmed();
    s.shm = m_shm->text().trimmed();
    s.homeSize = m_home->text().trimmed();
    s.homePath = m_homePath->text().trimmed();
    for (const QString &m : m_mounts->text().split(u',', Qt::SkipEmptyParts))
        s.mounts << m.trimmed();
    s.vc = m_vc->currentData().toString();
    for (const QString &line : m_env->toPlainText().split(u'\n', Qt::SkipEmptyParts))
        if (line.contains(u'='))
            s.env.append({line.section(u'=', 0, 0).trimmed(), line.section(u'=', 1)});
    s.services.clear();
    for (const QCheckBox *box : m_services)
        if (box->isChecked())
            s.services << box->property("service").toString();
    return s;
}

void DevEnvDialog::check()
{
    const QStringList errors = DevEnvRules::errors(spec(), *m_store);
    // Say nothing of the empty name until something else is typed.
    m_problems->setText(m_name->text().isEmpty() ? QString() : errors.join(u'\n'));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(errors.isEmpty());
}

void DevEnvDialog::setImages(ImagesService *images)
{
    m_images = images;
    if (m_images && !m_image->currentText().trimmed().isEmpty())
        lookUpSize();
}

void DevEnvDialog::lookUpSize()
{
    delete m_sizeAsk;
    const QString reference = m_image->currentText().trimmed();
    if (!m_images || reference.isEmpty()) {
        m_imageSize->setVisible(false);
        return;
    }
    m_sizeAsk = new QObject(this);
    m_imageSize->setVisible(true);
    m_imageSize->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_imageSize->setText(tr("Asking the registry for the image's size…"));
    m_images->imageSize(reference, m_sizeAsk, [this](qint64 bytes, const QString &error) {
        if (!error.isEmpty()) {
            m_imageSize->setStyleSheet(QStringLiteral("color: palette(mid);"));
            m_imageSize->setText(tr("Size not known: %1").arg(error));
        } else if (bytes >= m_images->hugeBytes()) {
            // Users asked for this: 50–60 GB images once made a platform unreachable.
            m_imageSize->setStyleSheet(
                QStringLiteral("QLabel { background: #fff4ce; color: #5c4400; border: 1px solid "
                               "#e0c060; padding: 6px; border-radius: 4px; }"));
            m_imageSize->setText(
                tr("This image is %1 (compressed), over the %2 your admin set "
                   "for a warning: pulling it onto a node takes long and fills "
                   "its disk for everyone there.")
                    .arg(format::bytes(bytes), format::bytes(m_images->hugeBytes())));
        } else {
            m_imageSize->setStyleSheet(QStringLiteral("color: palette(mid);"));
            m_imageSize->setText(tr("Image size: %1 (compressed)").arg(format::bytes(bytes)));
        }
    });
}

} // namespace gpudesk
