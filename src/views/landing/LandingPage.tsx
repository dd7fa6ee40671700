import { AnchorButton, Card, H1, H2, H3, Icon, type IconName } from '@blueprintjs/core';
import { Link } from 'wouter';
import { Brand } from '../shared/Brand';
import { APP_VERSION } from '../shared/version';

/**
 * Public landing at /landing (docs/product.md §2; issue "Foundation"): what the developer sells — lots with
 * services, financing in instalments, payment by Yape/Plin, legal security with SUNARP titles — and
 * the two ways in ("Acceso colaboradores", "Acceso clientes"). No external images or fonts: the
 * hero is drawn with CSS and Blueprint icons.
 */

const FEATURES: { icon: IconName; title: string; text: string }[] = [
  {
    icon: 'home',
    title: 'Lotes con servicios',
    text: 'Lotes urbanos con agua, desagüe y luz, pistas y veredas, listos para que empieces a construir.',
  },
  {
    icon: 'calendar',
    title: 'Financiamiento en cuotas',
    text: 'Separa tu lote, paga una cuota inicial y el saldo en cuotas mensuales con un cronograma claro.',
  },
  {
    icon: 'mobile-phone',
    title: 'Paga con Yape o Plin',
    text: 'Paga tus cuotas desde tu celular con Yape, Plin o transferencia y sube tu constancia en línea.',
  },
  {
    icon: 'shield',
    title: 'Seguridad jurídica',
    text: 'Contratos de compraventa claros y títulos de propiedad inscritos en SUNARP.',
  },
];

const STEPS: { title: string; text: string }[] = [
  { title: 'Elige tu lote', text: 'Conoce nuestros proyectos y el plano con los lotes disponibles.' },
  { title: 'Sepáralo', text: 'Reserva tu lote con una separación y asegura tu precio.' },
  { title: 'Firma tu contrato', text: 'Elige al contado o en cuotas y firma tu contrato de compraventa.' },
  { title: 'Sigue tus pagos', text: 'Desde el portal de clientes revisa tus cuotas, pagos y trámites.' },
];

export function LandingPage() {
  return (
    <div className="landing">
      <header className="landing-header">
        <Link href="/landing" className="landing-brand" aria-label="Parcela">
          <Brand size={36} />
        </Link>
        <nav className="landing-nav" aria-label="Accesos">
          <Link href="/auth/loginclientes" asChild>
            <AnchorButton variant="minimal" icon="log-in" text="Ingresar" />
          </Link>
        </nav>
      </header>

      <main>
        <section className="landing-hero">
          <div className="landing-hero-text">
            <p className="landing-kicker">Lotizaciones en Perú</p>
            <H1 className="landing-title">Lotes para construir tu futuro</H1>
            <p className="landing-lead">
              Compra tu lote con servicios, en cuotas y con la tranquilidad de un título inscrito. Todo tu proceso de compra y tus pagos, en
              un solo lugar.
            </p>
            <div className="landing-cta">
              <Link href="/auth/loginclientes" asChild>
                <AnchorButton intent="primary" size="large" icon="person" text="Acceso clientes" />
              </Link>
              <Link href="/auth/login" asChild>
                <AnchorButton variant="outlined" size="large" icon="briefcase" text="Acceso colaboradores" />
              </Link>
            </div>
          </div>
          <div className="landing-hero-art" aria-hidden="true">
            <div className="landing-plan">
              {Array.from({ length: 12 }, (_, i) => (
                <span key={i} className={`landing-lot landing-lot-${i % 4 === 1 ? 'sold' : i % 5 === 2 ? 'held' : 'free'}`} />
              ))}
            </div>
          </div>
        </section>

        <section className="landing-section" aria-labelledby="landing-features">
          <H2 id="landing-features" className="landing-section-title">
            ¿Por qué comprar con nosotros?
          </H2>
          <div className="landing-features">
            {FEATURES.map((f) => (
              <Card key={f.title} className="landing-feature" elevation={1}>
                <span className="landing-feature-icon">
                  <Icon icon={f.icon} size={22} />
                </span>
                <H3 className="landing-feature-title">{f.title}</H3>
                <p>{f.text}</p>
              </Card>
            ))}
          </div>
        </section>

        <section className="landing-section" aria-labelledby="landing-steps">
          <H2 id="landing-steps" className="landing-section-title">
            Cómo comprar tu lote
          </H2>
          <ol className="landing-steps">
            {STEPS.map((s, i) => (
              <li key={s.title} className="landing-step">
                <span className="landing-step-number">{i + 1}</span>
                <div>
                  <H3 className="landing-step-title">{s.title}</H3>
                  <p>{s.text}</p>
                </div>
              </li>
            ))}
          </ol>
        </section>

        <section className="landing-band">
          <H2 className="landing-band-title">¿Ya eres cliente?</H2>
          <p>Ingresa al portal para ver tus compras, tu cronograma de cuotas y registrar tus pagos.</p>
          <Link href="/auth/loginclientes" asChild>
            <AnchorButton intent="primary" size="large" text="Ingresar al portal de clientes" />
          </Link>
        </section>
      </main>

      <footer className="landing-footer">
        <Brand size={24} />
        <span>Desarrollado por el equipo Parcela · {APP_VERSION}</span>
      </footer>
    </div>
  );
}
