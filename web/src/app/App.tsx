import { Suspense } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { InvitationPage } from '../features/invitation/InvitationPage';
import { LoginPage } from '../features/login/LoginPage';
import { ForgotPasswordPage } from '../features/password-reset/ForgotPasswordPage';
import { ResetPasswordPage } from '../features/password-reset/ResetPasswordPage';
import { RegisterPage } from '../features/register/RegisterPage';
import { ErrorBoundary } from '../ui/ErrorBoundary';
import { ConnectionBanner } from './ConnectionBanner';
import { Toasts } from '../ui/Toasts';
import { GuestOnly, RequireAuth } from './guards';
import { Layout } from './Layout';
import { NotFound } from './NotFound';
import { findRoute } from './routes';

/** The signed-in area: one layout that stays mounted while the screen inside it changes. */
function ProtectedScreens() {
  const [location] = useLocation();
  const route = findRoute(location);
  if (!route) return <NotFound />;
  return (
    <RequireAuth>
      <Layout>
        <ErrorBoundary key={route.path}>
          <Suspense
            fallback={
              <p className="page-loading" role="status">
                Cargando...
              </p>
            }
          >
            <route.Page />
          </Suspense>
        </ErrorBoundary>
      </Layout>
    </RequireAuth>
  );
}

export function App() {
  return (
    <>
      <ConnectionBanner />
      <Switch>
        <Route path="/login">
          <GuestOnly>
            <LoginPage />
          </GuestOnly>
        </Route>
        <Route path="/register">
          <GuestOnly>
            <RegisterPage />
          </GuestOnly>
        </Route>
        <Route path="/recuperar-contrasena">
          <GuestOnly>
            <ForgotPasswordPage />
          </GuestOnly>
        </Route>
        {/* Not guest-only: a reset link works whether or not this browser is signed in (the reset ends that session). */}
        <Route path="/restablecer">
          <ResetPasswordPage />
        </Route>
        {/* Not guest-only either: a person with an account signs in first and joins from here. */}
        <Route path="/invitacion">
          <InvitationPage />
        </Route>
        <Route>
          <ProtectedScreens />
        </Route>
      </Switch>
      <Toasts />
    </>
  );
}
