import { selectActiveLocal, selectUser } from '../../machines/session/session.selectors';
import { useSession } from '../services';
import { HomeView } from './HomeView';
import { CustomerHomeSection } from './customer/CustomerHomeSection';

/**
 * Inicio at / (docs/product.md §2 dashboard; issue "Foundation"): {@link HomeView} with the session's
 * user and active location (first entry of `local_active`); a customer also gets their summary
 * (docs/dashboard.md "The customer's Inicio").
 */
export function HomePage() {
  const user = useSession(selectUser);
  const local = useSession(selectActiveLocal);
  const customer = useSession((s) => s.context.userType === 'CUSTOMER');
  return (
    <HomeView user={user} local={local}>
      {customer ? <CustomerHomeSection /> : null}
    </HomeView>
  );
}
