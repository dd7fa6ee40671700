import { selectActiveLocal, selectUser } from '../../machines/session/session.selectors';
import { useSession } from '../services';
import { HomeView } from './HomeView';

/**
 * Inicio at / (docs/product.md §2 dashboard; issue "Foundation"): {@link HomeView} with the session's
 * user and active location (first entry of `local_active`).
 */
export function HomePage() {
  const user = useSession(selectUser);
  const local = useSession(selectActiveLocal);
  return <HomeView user={user} local={local} />;
}
